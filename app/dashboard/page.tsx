import Link from "next/link";
import { roleLabel } from "@/components/dashboard/app-shell";
import { LoadError } from "@/components/dashboard/load-error";
import { MyInvitations } from "@/components/dashboard/invitations";
import { HealthStrip } from "@/components/dashboard/overview/health-strip";
import { OrganizationHealthCard } from "@/components/dashboard/overview/organization-health-card";
import { EmptyState, PageHeader } from "@/components/ui/card";
import { CursorPager } from "@/components/ui/cursor-pager";
import { load } from "@/server/api/dashboard/load";

export const dynamic = "force-dynamic";

export default async function OverviewPage({ searchParams }: { searchParams: Promise<{ q?: string; cursor?: string }> }) {
  const { q, cursor } = await searchParams;
  const search = typeof q === "string" ? q.trim().slice(0, 200) : "";
  const loaded = await load(async (caller) => {
    const grid = await caller.organizations.grid({ search: search || undefined, cursor: cursor || undefined });
    return {
      me: await caller.viewer.me(),
      grid,
      // The page's organizations' rows; the strip's totals cover every organization in reach.
      health: await caller.organizations.health({ organizationIds: grid.items.map((o) => o.id) }),
      invitations: await caller.viewer.invitations(),
    };
  });
  if (!loaded.ok) return <LoadError {...loaded} />;
  const { me, grid, health, invitations } = loaded.data;
  const organizations = grid.items;
  const activeKeys = grid.totals.activeKeys;
  const healthOf = new Map(health.items.map((item) => [item.organizationId, item]));
  const everyone = me.isInstanceOwner || me.isSupport;
  // One organization in reach: the strip's links go straight to its filtered sources table.
  const only = !everyone && health.totals.organizations === 1 && organizations.length === 1 ? { id: organizations[0]!.id, name: organizations[0]!.name } : null;
  const pageLink = (next?: string) => {
    const params = new URLSearchParams();
    if (search) params.set("q", search);
    if (next) params.set("cursor", next);
    const text = params.toString();
    return text ? `/dashboard?${text}` : "/dashboard";
  };
  return (
    <div>
      <PageHeader title="Overview" description={`Signed in as ${me.name ?? me.email} · ${roleLabel(me)}`} />
      <MyInvitations invitations={invitations} />
      {health.totals.organizations > 0 ? <HealthStrip totals={health.totals} window={health.window} only={only} everyone={everyone} /> : null}
      <div className="mb-3 flex flex-col gap-2 sm:flex-row sm:items-center sm:justify-between">
        <div>
          <h2 id="organization-health" className="text-lg font-semibold text-slate-900">
            Organizations
          </h2>
          <p className="text-sm text-slate-600">
            <span data-testid="overview-org-count">{grid.totals.organizations}</span> {grid.totals.organizations === 1 ? "organization" : "organizations"} ·{" "}
            {activeKeys} active {activeKeys === 1 ? "key" : "keys"} · you belong to {me.memberships.length}
          </p>
        </div>
        {grid.totals.organizations > 0 ? (
          <form method="get" role="search" aria-label="Search organizations" className="flex gap-2">
            <label htmlFor="org-search" className="sr-only">
              Search organizations by name
            </label>
            <input
              id="org-search"
              name="q"
              defaultValue={search}
              placeholder="Search by name"
              className="h-9 w-full rounded-md border border-slate-300 bg-white px-3 text-sm sm:w-64 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-blue-600"
            />
            <button
              type="submit"
              className="h-9 rounded-md border border-slate-300 bg-white px-3 text-sm font-medium hover:bg-slate-50 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-blue-600"
            >
              Search
            </button>
          </form>
        ) : null}
      </div>
      {organizations.length === 0 && search ? (
        <EmptyState title={`No organization matches “${search}”`}>
          <Link className="text-blue-700 underline" href="/dashboard">
            Show every organization
          </Link>
        </EmptyState>
      ) : organizations.length === 0 ? (
        <EmptyState title="No organizations to show">
          {me.isInstanceOwner ? (
            <Link className="text-blue-700 underline" href="/dashboard/organizations">
              Create the first organization
            </Link>
          ) : (
            "Ask an instance owner or an organization admin to add you to an organization."
          )}
        </EmptyState>
      ) : (
        <ul className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-3">
          {organizations.map((organization) => (
            <li key={organization.id} className="min-w-0">
              <OrganizationHealthCard organization={organization} health={healthOf.get(organization.id)} />
            </li>
          ))}
        </ul>
      )}
      <CursorPager
        label="More organizations"
        className="mt-4"
        firstHref={cursor ? pageLink() : null}
        nextHref={grid.nextCursor ? pageLink(grid.nextCursor) : null}
        nextLabel="Next organizations →"
        nextTestId="org-grid-next"
      />
    </div>
  );
}
