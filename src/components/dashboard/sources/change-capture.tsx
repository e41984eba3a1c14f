import { RelativeTime } from "@/components/ui/relative-time";
import { count } from "./format";
import type { SourceDetail } from "./types";

/** WAL sizes as people read them: 1 536 → "1.5 KiB". */
function bytesLabel(bytes: number): string {
  const units = ["bytes", "KiB", "MiB", "GiB", "TiB"];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return unit === 0 ? `${count(bytes)} bytes` : `${value.toFixed(1)} ${units[unit]}`;
}

/**
 * A streamed (CDC) source's replication slot: how much WAL the customer's server still keeps for
 * us, and when a commit was last applied. Honest about unknowns: before the first measure it says so.
 */
export function ChangeCaptureFacts({ capture }: { capture: NonNullable<SourceDetail["changeCapture"]> }) {
  return (
    <section aria-labelledby="cdc-heading" className="mt-4 border-t border-slate-100 pt-3" data-testid="change-capture">
      <h3 id="cdc-heading" className="text-xs font-medium text-slate-700">
        Change data capture (logical replication)
      </h3>
      <dl className="mt-2 grid grid-cols-2 gap-x-4 gap-y-2 sm:grid-cols-4">
        <div>
          <dt className="text-xs text-slate-500">Slot lag</dt>
          <dd className="text-sm text-slate-900" data-testid="slot-lag">
            {capture.lagBytes === null ? <span className="text-slate-500">not measured yet</span> : bytesLabel(capture.lagBytes)}
            {capture.measuredAt ? (
              <span className="text-xs text-slate-500">
                {" "}
                (measured <RelativeTime iso={capture.measuredAt} />)
              </span>
            ) : null}
          </dd>
        </div>
        <div>
          <dt className="text-xs text-slate-500">Last commit applied</dt>
          <dd className="text-sm text-slate-900">
            {capture.lastAppliedAt ? <RelativeTime iso={capture.lastAppliedAt} /> : <span className="text-slate-500">none since the last full compare</span>}
          </dd>
        </div>
        <div className="col-span-2">
          <dt className="text-xs text-slate-500">Last fallback to a full compare</dt>
          <dd className="text-sm text-slate-900">{capture.lastFallback ?? <span className="text-slate-500">none</span>}</dd>
        </div>
      </dl>
    </section>
  );
}
