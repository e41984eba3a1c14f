import { Alert } from "@/components/ui/alert";
import { RelativeTime } from "@/components/ui/relative-time";
import type { SourceSummary } from "./types";

/** Why a source is not ok, in words: the sync_error, the declined deletions, or staleness. */
export function SourceProblem({ source }: { source: SourceSummary }) {
  return (
    <>
      {source.pausedAt ? (
        <Alert tone="info" title="Paused" className="mt-3">
          <span data-testid="paused-by">
            Paused by {source.pausedBy ?? "someone"} <RelativeTime iso={source.pausedAt} />.
          </span>{" "}
          No pass runs until it is resumed; its rows are still served as of its last pass.
        </Alert>
      ) : null}
      {source.state === "error" && source.syncError ? (
        <Alert title="The last pass failed" className="mt-3">
          <span data-testid="sync-error">{source.syncError}</span>
        </Alert>
      ) : null}
      {source.state === "needs_attention" ? (
        <Alert tone="warning" title="Needs attention" className="mt-3">
          The last pass held back {source.declinedDeletions} deletion{source.declinedDeletions === 1 ? "" : "s"} (more than half the source
          disappeared at once). Review them, then approve if they are real.
          {source.syncError ? <span className="mt-1 block" data-testid="sync-error">{source.syncError}</span> : null}
        </Alert>
      ) : null}
      {source.stale ? (
        <Alert tone="warning" title="Stale: not completed for more than 3 intervals" className="mt-3">
          It may still be running on schedule, but its data is only as fresh as its last completed pass.
        </Alert>
      ) : null}
    </>
  );
}
