import type { ReactNode } from "react";
import { RelativeTime } from "@/components/ui/relative-time";
import { count, scheduleLabel } from "./format";
import { NextPass } from "./next-pass";
import type { SourceSummary } from "./types";

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs text-slate-500">{label}</dt>
      <dd className="text-sm text-slate-900">{children}</dd>
    </div>
  );
}

/**
 * The figures every source shows, in the list and on its page. "Last completed" sits beside
 * "last ran" because a source can keep running without completing (spec 2.3).
 */
export function SourceFacts({ source }: { source: SourceSummary }) {
  return (
    <dl className="grid grid-cols-2 gap-x-4 gap-y-2 sm:grid-cols-4">
      <Fact label="Last completed">
        <RelativeTime iso={source.lastSyncedAt} />
      </Fact>
      <Fact label="Last ran">{source.state === "never_synced" ? <span className="text-slate-500">never</span> : <RelativeTime iso={source.updatedAt} />}</Fact>
      <Fact label="Versions">
        data v{source.dataVersion} · schema v{source.schemaVersion}
      </Fact>
      <Fact label="Rows">
        <span data-testid="live-rows">{count(source.liveRows)}</span> live · {count(source.tombstones)} tombstoned
      </Fact>
      <Fact label="Schedule">{scheduleLabel(source.kind, source.syncIntervalSeconds)}</Fact>
      <Fact label="Next pass due">
        <NextPass source={source} />
      </Fact>
      <div className="col-span-2 min-w-0">
        <dt className="text-xs text-slate-500">Columns ({source.columns.length})</dt>
        <dd className="truncate text-sm text-slate-900" title={source.columns.join(", ")}>
          {source.columns.length > 0 ? source.columns.join(", ") : <span className="text-slate-500">none yet</span>}
        </dd>
      </div>
    </dl>
  );
}
