import type { ReactNode } from "react";
import { Alert } from "@/components/ui/alert";
import { RelativeTime } from "@/components/ui/relative-time";
import { nextStepFor, type NextStep, type TroubleClass } from "@/lib/next-step";
import type { SourceSummary } from "./types";

const CLASS_TITLES: Record<TroubleClass, string> = {
  credentials: "The credentials were refused",
  permission: "The connection's user may not read it",
  missing_table: "What it mirrors was not found",
  network: "The source could not be reached",
  guardrail: "Needs attention",
  stale: "Stale: not completed for more than 3 intervals",
  other: "The last pass failed",
};

/** The step for this source now, the alert mail's wording (next-step.ts); null when it is fine. */
function sourceNextStep(source: Pick<SourceSummary, "state" | "syncError" | "kind" | "stale">, canApprove = true): NextStep | null {
  if (source.state === "error" || source.state === "needs_attention") return nextStepFor(source, { canApprove });
  if (source.stale) return nextStepFor({ ...source, state: "stale" }, { canApprove });
  return null;
}

/**
 * Why a source is not ok, in one banner (D461): what happened, what to do about it (by the
 * sync_error's class, as the alert mail says it) and, on the source page, the button that does
 * it. Staleness is a line inside an error's banner, not a second, conflicting banner.
 */
export function SourceProblem({ source, canApprove, actions }: { source: SourceSummary; canApprove: boolean; actions?: (step: NextStep) => ReactNode }) {
  const step = sourceNextStep(source, canApprove);
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
      {step ? (
        <div data-testid="source-problem" data-class={step.class}>
          <Alert tone={source.state === "error" ? "error" : "warning"} title={CLASS_TITLES[step.class]} className="mt-3">
            {source.state === "needs_attention" ? (
              <p>
                The last pass held back {source.declinedDeletions} deletion{source.declinedDeletions === 1 ? "" : "s"} (more than half the source disappeared at
                once).
              </p>
            ) : null}
            {source.state !== "ok" && source.syncError ? (
              <p data-testid="sync-error" className="break-words">
                {source.syncError}
              </p>
            ) : null}
            {source.state !== "ok" && source.stale ? (
              <p className="mt-1">It has not completed a pass for more than 3 of its intervals: its data is only as fresh as its last completed pass.</p>
            ) : null}
            {source.state === "ok" ? <p>It may still be running on schedule, but its data is only as fresh as its last completed pass.</p> : null}
            <p className="mt-1" data-testid="next-step">
              <strong>What to do:</strong> {step.text}
            </p>
            {actions ? <div className="mt-2 flex flex-wrap gap-2">{actions(step)}</div> : null}
          </Alert>
        </div>
      ) : null}
    </>
  );
}
