import Link from "next/link";
import { LoadError } from "@/components/dashboard/load-error";
import { UsersView } from "@/components/dashboard/users-view";
import { PageHeader } from "@/components/ui/card";
import { load } from "@/server/api/dashboard/load";

export const dynamic = "force-dynamic";

const PAGE_LINK = "rounded-md border border-slate-300 bg-white px-3 py-1.5 hover:bg-slate-50";

export default async function UsersPage({ searchParams }: { searchParams: Promise<{ cursor?: string }> }) {
  const { cursor } = await searchParams;
  const loaded = await load(async (caller) => ({
    me: await caller.viewer.me(),
    users: await caller.users.list({ limit: 50, cursor: cursor || undefined }),
  }));
  if (!loaded.ok) return <LoadError {...loaded} />;
  const { me, users } = loaded.data;
  return (
    <div className="space-y-3">
      <PageHeader
        title="Users"
        description="Everyone who can sign in to this dashboard. Owners disable and enable accounts, reset passwords (the new one is shown once) and lift sign-in locks."
      />
      <UsersView users={users.items} isOwner={me.isInstanceOwner} viewerId={me.userId} />
      <nav aria-label="User pages" className="flex justify-end gap-2 text-sm">
        {cursor ? (
          <Link href="/dashboard/users" className={PAGE_LINK}>
            First page
          </Link>
        ) : null}
        {users.nextCursor ? (
          <Link href={`/dashboard/users?cursor=${encodeURIComponent(users.nextCursor)}`} className={PAGE_LINK}>
            Next users
          </Link>
        ) : null}
      </nav>
    </div>
  );
}
