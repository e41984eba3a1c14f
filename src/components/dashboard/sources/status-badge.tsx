import { AlertTriangle, Clock, Pause } from "lucide-react";
import { Badge } from "@/components/ui/badge";

const STATES = {
  ok: { label: "ok", tone: "green" },
  needs_attention: { label: "Needs attention", tone: "amber" },
  error: { label: "error", tone: "red" },
  never_synced: { label: "never synced", tone: "neutral" },
} as const;

export type SourceStateName = keyof typeof STATES;

/** The source's state (spec 3.2: "Needs attention" is not an error, and not ok either). */
export function SourceStateBadge({ state }: { state: SourceStateName }) {
  const { label, tone } = STATES[state];
  return (
    <Badge tone={tone} data-testid="source-state" className="gap-1">
      {state === "needs_attention" || state === "error" ? <AlertTriangle className="size-3" aria-hidden /> : null}
      {label}
    </Badge>
  );
}

/** Liveness is not currency (spec 2.3): a source that runs but has not completed for 3 intervals. */
export function StaleBadge() {
  return (
    <Badge tone="amber" className="gap-1" title="It keeps running but has not completed a pass for more than 3 of its intervals">
      <Clock className="size-3" aria-hidden />
      stale
    </Badge>
  );
}

/** Paused (D131): a dashboard state beside sync_status; no pass runs, no alarm is raised. */
export function PausedBadge() {
  return (
    <Badge tone="neutral" className="gap-1" data-testid="paused-badge" title="No pass runs until it is resumed; its rows are still served">
      <Pause className="size-3" aria-hidden />
      Paused
    </Badge>
  );
}
