import { LoadError } from "@/components/dashboard/load-error";
import { UsersView } from "@/components/dashboard/users-view";
import { PageHeader } from "@/components/ui/card";
import { load } from "@/server/api/dashboard/load";

export const dynamic = "force-dynamic";

export default async function UsersPage() {
  const loaded = await load(async (caller) => ({
    me: await caller.viewer.me(),
    users: await caller.users.list(),
    organizations: await caller.organizations.list(),
  }));
  if (!loaded.ok) return <LoadError {...loaded} />;
  const { me, users, organizations } = loaded.data;
  return (
    <div>
      <PageHeader title="Users" description="Everyone who can sign in to this dashboard. Owners disable and enable accounts, reset passwords (the new one is shown once) and lift sign-in locks." />
      <UsersView users={users} organizations={organizations.map((o) => ({ id: o.id, name: o.name }))} isOwner={me.isInstanceOwner} viewerId={me.userId} />
    </div>
  );
}
