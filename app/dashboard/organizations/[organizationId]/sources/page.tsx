import { Alert } from "@/components/ui/alert";
import { CursorPager } from "@/components/ui/cursor-pager";
import { LoadError } from "@/components/dashboard/load-error";
import { CreateSourceDialog } from "@/components/dashboard/sources/create-source-dialog";
import { SourcesList } from "@/components/dashboard/sources/sources-list";
import { load } from "@/server/api/dashboard/load";
import type { SOURCE_SORTS } from "@/server/modules/data-sources/list-sources";
import type { SourceStatusFilter } from "@/server/modules/data-sources/source-status";
import { one, pageSize, sourceTableQuery, tableHref } from "@/components/dashboard/sources/source-table-query";

export const dynamic = "force-dynamic";

export default async function SourcesPage({
  params,
  searchParams,
}: {
  params: Promise<{ organizationId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { organizationId } = await params;
  const raw = await searchParams;
  const { cursor, deleted } = { cursor: one(raw.cursor), deleted: one(raw.deleted) };
  const query = sourceTableQuery(raw);
  const loaded = await load(async (caller) => ({
    organization: await caller.organizations.get({ organizationId }),
    sources: await caller.sources.list({
      organizationId,
      cursor: cursor || undefined,
      search: query.search,
      status: query.status as SourceStatusFilter | undefined,
      kind: query.kind as "csv" | "postgres_table" | "crm_object" | undefined,
      sort: query.sort as (typeof SOURCE_SORTS)[number],
      limit: pageSize(raw),
    }),
  }));
  if (!loaded.ok) return <LoadError {...loaded} />;
  const { organization, sources } = loaded.data;
  const base = `/dashboard/organizations/${organizationId}/sources`;
  return (
    <div className="space-y-4">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <p className="text-sm text-slate-600">Lists that forms pick from: mirrored from a Postgres table or a CRM object on a schedule, or uploaded as CSV.</p>
        {organization.canAdmin ? <CreateSourceDialog organizationId={organizationId} /> : null}
      </div>
      {deleted ? (
        <Alert tone="success" title="Source deleted">
          “{deleted}” is gone: its rows endpoint answers 404, and its rows are being removed in the background.
        </Alert>
      ) : null}
      <SourcesList organizationId={organizationId} sources={sources.items} canManage={organization.canAdmin} query={query} />
      <CursorPager
        label="More sources"
        firstHref={cursor ? tableHref(base, query, raw) : null}
        nextHref={sources.nextCursor ? tableHref(base, query, raw, sources.nextCursor) : null}
        nextLabel="Next sources →"
        nextTestId="sources-next-page"
      />
    </div>
  );
}
