import { ArrowRight, Building2, KeyRound, Users } from "lucide-react";
import Link from "next/link";
import { roleLabel } from "@/components/dashboard/app-shell";
import { LoadError } from "@/components/dashboard/load-error";
import { MyInvitations } from "@/components/dashboard/invitations";
import { Card, EmptyState, PageHeader } from "@/components/ui/card";
import { CursorPager } from "@/components/ui/cursor-pager";
import { load } from "@/server/api/dashboard/load";

export const dynamic = "force-dynamic";

export default async function OverviewPage({ searchParams }: { searchParams: Promise<{ q?: string; cursor?: string }> }) {
  const { q, cursor } = await searchParams;
  const search = typeof q === "string" ? q.trim().slice(0, 200) : "";
  const loaded = await load(async (caller) => ({
    me: await caller.viewer.me(),
    grid: await caller.organizations.grid({ search: search || undefined, cursor: cursor || undefined }),
    invitations: await caller.viewer.invitations(),
  }));
  if (!loaded.ok) return <LoadError {...loaded} />;
  const { me, grid, invitations } = loaded.data;
  const organizations = grid.items;
  const activeKeys = grid.totals.activeKeys;
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
      {/* On a phone each figure is a row (label, number): three columns of 100 px would break
          "Organizations" mid-word (D511). */}
      <div className="mb-6 grid grid-cols-1 gap-2 sm:grid-cols-3 sm:gap-3">
        <Card className="flex items-center justify-between gap-3 p-3 sm:block sm:p-5">
          <p className="flex items-center gap-2 text-sm text-slate-600">
            <Building2 className="size-4" aria-hidden /> Organizations
          </p>
          <p className="text-xl font-semibold sm:mt-1 sm:text-2xl" data-testid="overview-org-count">{grid.totals.organizations}</p>
        </Card>
        <Card className="flex items-center justify-between gap-3 p-3 sm:block sm:p-5">
          <p className="flex items-center gap-2 text-sm text-slate-600">
            <KeyRound className="size-4" aria-hidden /> Active keys
          </p>
          <p className="text-xl font-semibold sm:mt-1 sm:text-2xl">{activeKeys}</p>
        </Card>
        <Card className="flex items-center justify-between gap-3 p-3 sm:block sm:p-5">
          <p className="flex items-center gap-2 text-sm text-slate-600">
            <Users className="size-4" aria-hidden /> Your memberships
          </p>
          <p className="text-xl font-semibold sm:mt-1 sm:text-2xl">{me.memberships.length}</p>
        </Card>
      </div>
      <div className="mb-3 flex flex-col gap-2 sm:flex-row sm:items-center sm:justify-between">
        <h2 className="text-lg font-semibold text-slate-900">Organizations</h2>
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
            <button type="submit" className="h-9 rounded-md border border-slate-300 bg-white px-3 text-sm font-medium hover:bg-slate-50 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-blue-600">
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
            // min-w-0: a grid item is otherwise as wide as its longest name (D511).
            <li key={organization.id} className="min-w-0">
              <Link
                href={`/dashboard/organizations/${organization.id}/keys`}
                className="group block rounded-lg border border-slate-200 bg-white p-4 hover:border-slate-400 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-blue-600"
              >
                <p className="flex items-center justify-between gap-2 font-medium text-slate-900">
                  <span className="min-w-0 truncate">{organization.name}</span>
                  <ArrowRight className="size-4 shrink-0 text-slate-400 group-hover:text-slate-700" aria-hidden />
                </p>
                <p className="mt-1 text-sm text-slate-600">
                  {organization.activeKeyCount} active key{organization.activeKeyCount === 1 ? "" : "s"} · {organization.memberCount} member
                  {organization.memberCount === 1 ? "" : "s"}
                </p>
              </Link>
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
