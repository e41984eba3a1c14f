import { Alert } from "@/components/ui/alert";
import { CursorPager } from "@/components/ui/cursor-pager";
import { LoadError } from "@/components/dashboard/load-error";
import { CreateSourceDialog } from "@/components/dashboard/sources/create-source-dialog";
import { SourcesList } from "@/components/dashboard/sources/sources-list";
import { load } from "@/server/api/dashboard/load";

export const dynamic = "force-dynamic";

export default async function SourcesPage({
  params,
  searchParams,
}: {
  params: Promise<{ organizationId: string }>;
  searchParams: Promise<{ cursor?: string; deleted?: string }>;
}) {
  const { organizationId } = await params;
  const { cursor, deleted } = await searchParams;
  const loaded = await load(async (caller) => ({
    organization: await caller.organizations.get({ organizationId }),
    sources: await caller.sources.list({ organizationId, cursor: cursor || undefined }),
  }));
  if (!loaded.ok) return <LoadError {...loaded} />;
  const { organization, sources } = loaded.data;
  return (
    <div className="space-y-4">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <p className="text-sm text-slate-600">
          Lists that forms pick from: mirrored from a Postgres table or a CRM object on a schedule, or uploaded as CSV.
        </p>
        {organization.canAdmin ? <CreateSourceDialog organizationId={organizationId} /> : null}
      </div>
      {deleted ? (
        <Alert tone="success" title="Source deleted">
          “{deleted}” is gone: its rows endpoint answers 404, and its rows are being removed in the background.
        </Alert>
      ) : null}
      <SourcesList organizationId={organizationId} sources={sources.items} canManage={organization.canAdmin} />
      <CursorPager
        label="More sources"
        firstHref={cursor ? `/dashboard/organizations/${organizationId}/sources` : null}
        nextHref={sources.nextCursor ? `/dashboard/organizations/${organizationId}/sources?cursor=${encodeURIComponent(sources.nextCursor)}` : null}
        nextLabel="Next 100 sources →"
      />
    </div>
  );
}
