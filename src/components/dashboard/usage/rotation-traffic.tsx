"use client";

import { useEffect, useState } from "react";
import { Alert } from "@/components/ui/alert";
import { describeError, trpc, type ShownError } from "@/lib/trpc-client";
import { totals, UsageChart, type UsagePoint } from "./usage-chart";

const POLL_MS = 10_000;

/**
 * The rotation panel's traffic (D199): the old key's and the new key's requests per hour over the
 * last 24 hours, side by side, re-read every few seconds, so the move from one to the other shows.
 */
export function RotationTraffic({
  organizationId,
  oldKeyId,
  newKeyId,
  lastUsedAt = null,
}: {
  organizationId: string | null;
  oldKeyId: string;
  newKeyId: string;
  /** The old key's last use as the panel last read it: a new use re-reads the counts at once (D467). */
  lastUsedAt?: string | null;
}) {
  const [series, setSeries] = useState<{ old: UsagePoint[]; new: UsagePoint[]; readAt: number } | null>(null);
  const [error, setError] = useState<ShownError | null>(null);
  useEffect(() => {
    let cancelled = false;
    const poll = async () => {
      try {
        const usage = await trpc.usage.key.query({ organizationId, keyIds: [oldKeyId, newKeyId], range: "24h" });
        if (cancelled) return;
        setSeries({ old: usage.series[0]?.points ?? [], new: usage.series[1]?.points ?? [], readAt: Date.now() });
        setError(null);
      } catch (caught) {
        if (!cancelled) setError(describeError(caught));
      }
    };
    void poll();
    const timer = setInterval(poll, POLL_MS);
    return () => {
      cancelled = true;
      clearInterval(timer);
    };
  }, [organizationId, oldKeyId, newKeyId, lastUsedAt]);

  if (error) {
    return (
      <Alert className="mt-3" title="Could not read the keys' traffic" requestId={error.requestId}>
        {error.message}
      </Alert>
    );
  }
  if (!series) return <p className="mt-3 text-sm text-slate-600">Loading the keys&apos; traffic…</p>;
  const lastHour = (points: UsagePoint[]) => totals(points.slice(-1)).all;
  return (
    <>
    <p className="mt-3 text-xs text-slate-600" data-testid="rotation-counts-as-of">
      Counts as of {new Date(series.readAt).toISOString().slice(11, 19)} UTC; requests reach them within a few seconds, so the last use can be newer than the counts.
    </p>
    <div className="mt-2 grid gap-3 md:grid-cols-2" data-testid="rotation-traffic">
      {(["old", "new"] as const).map((which) => (
        <div key={which}>
          <p className="mb-1 text-sm font-medium text-blue-950">
            {which === "old" ? "Old key" : "New key"}: {totals(series[which]).all} requests in 24 h,{" "}
            <span data-testid={`rotation-${which}-last-hour`}>{lastHour(series[which])}</span> this hour so far
          </p>
          <UsageChart points={series[which]} label={`${which === "old" ? "Old" : "New"} key, last 24 hours`} testId={`rotation-chart-${which}`} compact />
        </div>
      ))}
    </div>
    </>
  );
}
