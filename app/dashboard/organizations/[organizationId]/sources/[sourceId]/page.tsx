import { ArrowLeft } from "lucide-react";
import Link from "next/link";
import { LoadError } from "@/components/dashboard/load-error";
import { DeletionReviewPanel } from "@/components/dashboard/sources/deletion-review";
import { kindLabel, sourceStamp } from "@/components/dashboard/sources/format";
import { CreatedBanner } from "@/components/dashboard/sources/created-banner";
import { RefreshWhile } from "@/components/dashboard/sources/source-state";
import { buttonVariants } from "@/components/ui/button";
import { HistoryChart } from "@/components/dashboard/sources/history-chart";
import { HistoryTable } from "@/components/dashboard/sources/history-table";
import { RowsView } from "@/components/dashboard/sources/rows-view";
import { SourceFacts } from "@/components/dashboard/sources/source-facts";
import { CaptureFacts } from "@/components/dashboard/sources/capture-facts";
import { ChangeCaptureFacts } from "@/components/dashboard/sources/change-capture";
import { SourceProblem } from "@/components/dashboard/sources/source-problem";
import { EditSourceDialog } from "@/components/dashboard/sources/edit-source-dialog";
import { DeleteSourceDialog, PauseResync } from "@/components/dashboard/sources/source-lifecycle";
import { PausedBadge, SourceStateBadge, StaleBadge } from "@/components/dashboard/sources/status-badge";
import { SyncNow } from "@/components/dashboard/sources/sync-now";
import { UploadCsv } from "@/components/dashboard/sources/upload-csv";
import { Card } from "@/components/ui/card";
import { load } from "@/server/api/dashboard/load";

export const dynamic = "force-dynamic";

export default async function SourcePage({
  params,
  searchParams,
}: {
  params: Promise<{ organizationId: string; sourceId: string }>;
  searchParams: Promise<{ created?: string; history?: string }>;
}) {
  const { organizationId, sourceId } = await params;
  const { created, history: historyCursor } = await searchParams;
  const loaded = await load(async (caller) => {
    const source = await caller.sources.get({ organizationId, sourceId });
    return {
      source,
      history: await caller.sources.history({ organizationId, sourceId, limit: 50, cursor: historyCursor || undefined }),
      review: source.declinedDeletions > 0 ? await caller.sources.review({ organizationId, sourceId }) : null,
      connection: source.canManage ? await caller.sources.connection({ organizationId, sourceId }) : null,
    };
  });
  if (!loaded.ok) return <LoadError {...loaded} />;
  const { source, history, review, connection } = loaded.data;
  const key = { organizationId, sourceId };
  return (
    <div className="space-y-5">
      <Link href={`/dashboard/organizations/${organizationId}/sources`} className="inline-flex items-center gap-1 text-sm text-blue-700 hover:underline">
        <ArrowLeft className="size-4" aria-hidden /> All sources
      </Link>
      <Card>
        <div className="flex flex-wrap items-center gap-2">
          <h2 className="min-w-0 text-lg font-semibold wrap-anywhere text-slate-900">{source.name}</h2>
          <SourceStateBadge state={source.state} />
          {source.pausedAt ? <PausedBadge /> : null}
          {source.stale ? <StaleBadge /> : null}
          <span className="text-xs text-slate-500">{kindLabel(source.kind)}</span>
          <code className="ml-auto text-xs break-all text-slate-500">{source.id}</code>
        </div>
        {created ? <CreatedBanner source={source} /> : null}
        <RefreshWhile active={source.running || (source.state === "never_synced" && source.nextDueAt !== null && source.pausedAt === null)} />
        <SourceProblem
          source={source}
          canApprove={source.canManage}
          actions={(step) =>
            !source.canManage ? (
              <span className="text-xs">Only this organization&apos;s admins and instance owners can do this.</span>
            ) : step.action === "edit_connection" && source.kind !== "csv" ? (
              <EditSourceDialog source={source} connection={connection} label="Edit connection" />
            ) : step.action === "sync_now" && source.kind !== "csv" && !source.pausedAt ? (
              <SyncNow {...key} label="Retry now" />
            ) : step.action === "review_deletions" ? (
              <a href="#review-heading" className={buttonVariants({ variant: "outline", size: "sm" })}>
                Review {source.declinedDeletions} deletion{source.declinedDeletions === 1 ? "" : "s"}
              </a>
            ) : null
          }
        />
        <div className="mt-4">
          <SourceFacts source={source} />
        </div>
        {source.kind !== "csv" ? (
          <div className="mt-3 border-t border-slate-100 pt-3">
            <CaptureFacts source={source} />
          </div>
        ) : null}
        {source.changeCapture ? <ChangeCaptureFacts capture={source.changeCapture} /> : null}
        {source.canManage ? (
          <div className="mt-4 flex flex-wrap items-start gap-4 border-t border-slate-100 pt-4" data-testid="source-actions">
            {source.kind === "csv" ? <UploadCsv {...key} /> : source.pausedAt ? null : <SyncNow {...key} />}
            <PauseResync source={source} />
            <div className="flex flex-wrap gap-2 sm:ml-auto">
              <EditSourceDialog source={source} connection={connection} />
              <DeleteSourceDialog source={source} />
            </div>
          </div>
        ) : (
          <p className="mt-4 border-t border-slate-100 pt-3 text-xs text-slate-500">
            Read-only: only this organization&apos;s admins and instance owners change sources.
          </p>
        )}
      </Card>
      {review && review.declined > 0 ? <DeletionReviewPanel {...key} review={review} canManage={source.canManage} stamp={sourceStamp(source)} /> : null}
      <section aria-labelledby="history-heading" className="space-y-3">
        <h2 id="history-heading" className="text-lg font-semibold text-slate-900">
          Sync history
        </h2>
        <HistoryChart runs={history.items} />
        <HistoryTable runs={history.items} />
        {historyCursor || history.nextCursor ? (
          <nav aria-label="More passes" className="flex gap-4 text-sm">
            {historyCursor ? (
              <Link className="text-blue-700 hover:underline" href={`/dashboard/organizations/${organizationId}/sources/${sourceId}#history-heading`}>
                ← Latest passes
              </Link>
            ) : null}
            {history.nextCursor ? (
              <Link
                className="text-blue-700 hover:underline"
                data-testid="history-older"
                href={`/dashboard/organizations/${organizationId}/sources/${sourceId}?history=${encodeURIComponent(history.nextCursor)}#history-heading`}
              >
                Older passes →
              </Link>
            ) : null}
          </nav>
        ) : null}
      </section>
      <section aria-labelledby="rows-heading" className="space-y-3">
        <h2 id="rows-heading" className="text-lg font-semibold text-slate-900">
          Rows
        </h2>
        <RowsView {...key} stamp={sourceStamp(source)} />
      </section>
    </div>
  );
}
