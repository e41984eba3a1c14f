import { Badge } from "@/components/ui/badge";
import { EmptyState } from "@/components/ui/card";
import { RelativeTime } from "@/components/ui/relative-time";
import { Table, TBody, TD, TH, THead, TR } from "@/components/ui/table";
import { count, durationLabel } from "./format";
import type { SyncRun } from "./types";

const TONES = { ok: "green", needs_attention: "amber", error: "red", running: "blue" } as const;

/** One line per pass, newest first. */
export function HistoryTable({ runs }: { runs: SyncRun[] }) {
  if (runs.length === 0) return <EmptyState title="No passes yet">Use “Sync now”, or wait for the schedule (or upload a CSV).</EmptyState>;
  return (
    <Table aria-label="Sync history">
      <THead>
        <TR>
          <TH>Started</TH>
          <TH>Trigger</TH>
          <TH>Outcome</TH>
          <TH>Read</TH>
          <TH className="text-right">Inserted</TH>
          <TH className="text-right">Updated</TH>
          <TH className="text-right">Tombstoned</TH>
          <TH className="text-right">Revived</TH>
          <TH className="text-right">Declined</TH>
          <TH className="text-right">Duration</TH>
          <TH>Error</TH>
        </TR>
      </THead>
      <TBody>
        {runs.map((run) => (
          <TR key={run.id} data-testid="history-row">
            <TD className="whitespace-nowrap">
              <RelativeTime iso={run.startedAt} />
            </TD>
            <TD>{run.trigger}</TD>
            <TD>
              <Badge tone={TONES[run.status as keyof typeof TONES] ?? "neutral"}>{run.status === "needs_attention" ? "Needs attention" : run.status}</Badge>
            </TD>
            <TD className="text-xs" title={run.fallbackDescription ?? undefined}>
              {run.captureMode === null
                ? "–"
                : run.fullCompare
                  ? `full compare${run.fallbackReason ? ` (${run.fallbackReason.replace(/_/g, " ")})` : ""}`
                  : `incremental (${run.captureMode})`}
            </TD>
            <TD className="text-right tabular-nums">{count(run.inserted)}</TD>
            <TD className="text-right tabular-nums">{count(run.updated)}</TD>
            <TD className="text-right tabular-nums">{count(run.tombstoned)}</TD>
            <TD className="text-right tabular-nums">{count(run.revived)}</TD>
            <TD className="text-right tabular-nums">{count(run.declined)}</TD>
            <TD className="text-right whitespace-nowrap tabular-nums">
              {run.status === "running" ? `${count(run.rowsRead)} read…` : durationLabel(run.durationMs)}
            </TD>
            <TD className="max-w-xs text-xs text-red-800">{run.error}</TD>
          </TR>
        ))}
      </TBody>
    </Table>
  );
}
