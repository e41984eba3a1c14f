import { LoadError } from "@/components/dashboard/load-error";
import { OrganizationsView } from "@/components/dashboard/organizations-view";
import { PageHeader } from "@/components/ui/card";
import { CursorPager } from "@/components/ui/cursor-pager";
import { load } from "@/server/api/dashboard/load";

export const dynamic = "force-dynamic";

/** A table page; later ones by cursor (D330). */
const PAGE_SIZE = 100;

export default async function OrganizationsPage({ searchParams }: { searchParams: Promise<{ cursor?: string }> }) {
  const { cursor } = await searchParams;
  const loaded = await load(async (caller) => {
    const grid = await caller.organizations.grid({ cursor: cursor || undefined, limit: PAGE_SIZE });
    return {
      me: await caller.viewer.me(),
      grid,
      health: await caller.organizations.health({ organizationIds: grid.items.map((o) => o.id) }),
    };
  });
  if (!loaded.ok) return <LoadError {...loaded} />;
  const { me, grid, health } = loaded.data;
  const everyone = me.isInstanceOwner || me.isSupport;
  return (
    <div>
      <PageHeader
        title="Organizations"
        description={`${everyone ? "Every organization on this instance" : "The organizations you belong to"} (${grid.totals.organizations}).`}
      />
      <OrganizationsView
        organizations={grid.items}
        isOwner={me.isInstanceOwner}
        health={Object.fromEntries(health.items.map((item) => [item.organizationId, item]))}
        requestsSince={health.window.requestsSince}
        currentHourSince={health.window.currentHourSince}
      />
      <CursorPager
        label="More organizations"
        className="mt-4"
        firstHref={cursor ? "/dashboard/organizations" : null}
        nextHref={grid.nextCursor ? `/dashboard/organizations?cursor=${encodeURIComponent(grid.nextCursor)}` : null}
        nextLabel={`Next ${PAGE_SIZE} organizations →`}
        nextTestId="organizations-next"
      />
    </div>
  );
}
