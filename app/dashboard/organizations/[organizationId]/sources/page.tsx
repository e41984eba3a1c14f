import { LoadError } from "@/components/dashboard/load-error";
import { CreateSourceDialog } from "@/components/dashboard/sources/create-source-dialog";
import { SourcesList } from "@/components/dashboard/sources/sources-list";
import { load } from "@/server/api/dashboard/load";

export const dynamic = "force-dynamic";

export default async function SourcesPage({ params }: { params: Promise<{ organizationId: string }> }) {
  const { organizationId } = await params;
  const loaded = await load(async (caller) => ({
    organization: await caller.organizations.get({ organizationId }),
    sources: await caller.sources.list({ organizationId }),
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
      <SourcesList organizationId={organizationId} sources={sources.items} canManage={organization.canAdmin} />
      {sources.nextCursor ? <p className="text-sm text-slate-600">Showing the first 100 sources by name.</p> : null}
    </div>
  );
}
