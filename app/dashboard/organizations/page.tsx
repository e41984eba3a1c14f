import Link from "next/link";
import { LoadError } from "@/components/dashboard/load-error";
import { OrganizationsView } from "@/components/dashboard/organizations-view";
import { PageHeader } from "@/components/ui/card";
import { load } from "@/server/api/dashboard/load";

export const dynamic = "force-dynamic";

/** A table page; later ones by cursor (D330). */
const PAGE_SIZE = 100;

export default async function OrganizationsPage({ searchParams }: { searchParams: Promise<{ cursor?: string }> }) {
  const { cursor } = await searchParams;
  const loaded = await load(async (caller) => ({
    me: await caller.viewer.me(),
    grid: await caller.organizations.grid({ cursor: cursor || undefined, limit: PAGE_SIZE }),
  }));
  if (!loaded.ok) return <LoadError {...loaded} />;
  const { me, grid } = loaded.data;
  const everyone = me.isInstanceOwner || me.isSupport;
  return (
    <div>
      <PageHeader
        title="Organizations"
        description={`${everyone ? "Every organization on this instance" : "The organizations you belong to"} (${grid.totals.organizations}).`}
      />
      <OrganizationsView organizations={grid.items} isOwner={me.isInstanceOwner} />
      {cursor || grid.nextCursor ? (
        <nav aria-label="More organizations" className="mt-4 flex gap-4 text-sm">
          {cursor ? (
            <Link className="text-blue-700 hover:underline" href="/dashboard/organizations">
              ← First page
            </Link>
          ) : null}
          {grid.nextCursor ? (
            <Link className="text-blue-700 hover:underline" data-testid="organizations-next" href={`/dashboard/organizations?cursor=${encodeURIComponent(grid.nextCursor)}`}>
              Next {PAGE_SIZE} organizations →
            </Link>
          ) : null}
        </nav>
      ) : null}
    </div>
  );
}
