import { RelativeTime } from "@/components/ui/relative-time";
import { count } from "./format";
import { captureModeLabel } from "./capture-mode-labels";
import type { SourceDetail } from "./types";

/**
 * How the source learns what changed (D282): its capture mode, and how its last pass read
 * (incremental, or a full compare and why), with what that read cost the customer's database.
 */
export function CaptureFacts({ source }: { source: SourceDetail }) {
  if (source.kind === "csv") return null;
  const pass = source.lastPass;
  return (
    <dl className="grid grid-cols-2 gap-x-4 gap-y-2 sm:grid-cols-4" data-testid="capture-facts">
      <div className="min-w-0">
        <dt className="text-xs text-slate-500">Capture mode</dt>
        <dd className="text-sm text-slate-900" data-testid="capture-mode">
          {captureModeLabel(source.captureMode)}
        </dd>
      </div>
      <div className="col-span-2 min-w-0">
        <dt className="text-xs text-slate-500">Last pass read</dt>
        <dd className="text-sm text-slate-900" data-testid="last-pass-read">
          {pass === null || pass.captureMode === null ? (
            <span className="text-slate-500">no pass recorded its read yet</span>
          ) : pass.fullCompare ? (
            <>full compare{pass.fallbackDescription ? <span className="text-slate-600"> — {pass.fallbackDescription}</span> : null}</>
          ) : (
            <>only what changed ({captureModeLabel(pass.captureMode)})</>
          )}
          {pass?.customerStatements != null ? (
            <span className="block text-xs text-slate-500">
              customer side: {count(pass.customerStatements)} statements, {count(pass.customerRowsRead ?? 0)} rows read
            </span>
          ) : null}
        </dd>
      </div>
      <div className="min-w-0">
        <dt className="text-xs text-slate-500">Last full compare</dt>
        <dd className="text-sm text-slate-900">
          {source.lastFullCompareAt ? <RelativeTime iso={source.lastFullCompareAt} /> : <span className="text-slate-500">none yet</span>}
        </dd>
      </div>
    </dl>
  );
}
