"use client";

import { useEffect, useState } from "react";
import { Alert } from "@/components/ui/alert";
import { describeError, trpc, type ShownError } from "@/lib/trpc-client";
import { UsageChart } from "./usage-chart";
import { totals, type UsagePoint } from "./usage-totals";

const POLL_MS = 10_000;
/** While the old key's last use is not in the counts yet, re-read this often (D505)… */
const CATCH_UP_MS = 1_000;
/** …for at most this long: an entry the writer dropped (D192) never arrives. */
const CATCH_UP_FOR_MS = 30_000;

interface Series {
  points: UsagePoint[];
  lastUseCounted: boolean;
}

/**
 * The rotation panel's traffic (D199): the old key's and the new key's requests per hour over the
 * last 24 hours, side by side, re-read every few seconds, so the move from one to the other shows.
 * The counts come from the log's batches, which trail the key's last use by a second or more: until
 * they include it, the panel says so rather than print "0 requests" beside "last used: just now".
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
  const [read, setRead] = useState<{ old: Series; new: Series; readAt: number; readFor: string | null } | null>(null);
  const [error, setError] = useState<ShownError | null>(null);
  useEffect(() => {
    let cancelled = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const startedAt = Date.now();
    const poll = async () => {
      let next = POLL_MS;
      try {
        const usage = await trpc.usage.key.query({ organizationId, keyIds: [oldKeyId, newKeyId], range: "24h" });
        if (cancelled) return;
        const series = (i: number): Series => ({ points: usage.series[i]?.points ?? [], lastUseCounted: usage.series[i]?.lastUseCounted ?? true });
        const old = series(0);
        setRead({ old, new: series(1), readAt: Date.now(), readFor: lastUsedAt });
        setError(null);
        if (!old.lastUseCounted && Date.now() - startedAt < CATCH_UP_FOR_MS) next = CATCH_UP_MS;
      } catch (caught) {
        if (cancelled) return;
        setError(describeError(caught));
      }
      timer = setTimeout(() => void poll(), next);
    };
    void poll();
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [organizationId, oldKeyId, newKeyId, lastUsedAt]);

  if (error) {
    return (
      <Alert className="mt-3" title="Could not read the keys' traffic" requestId={error.requestId}>
        {error.message}
      </Alert>
    );
  }
  if (!read) return <p className="mt-3 text-sm text-slate-600">Loading the keys&apos; traffic…</p>;
  // Counts read before the panel saw the latest use are behind it as well.
  const oldBehind = !read.old.lastUseCounted || read.readFor !== lastUsedAt;
  const lastHour = (points: UsagePoint[]) => totals(points.slice(-1)).all;
  return (
    <>
      <p className="mt-3 text-xs text-slate-600" data-testid="rotation-counts-as-of">
        Counts as of {new Date(read.readAt).toISOString().slice(11, 19)} UTC, from the request log.
      </p>
      <div className="mt-2 grid gap-3 md:grid-cols-2" data-testid="rotation-traffic">
        {(["old", "new"] as const).map((which) => (
          <div key={which} data-testid={`rotation-${which}`} data-counting={which === "old" && oldBehind ? "true" : undefined}>
            <p className="mb-1 text-sm font-medium text-blue-950">
              {which === "old" ? "Old key" : "New key"}: {totals(read[which].points).all} requests in 24 h,{" "}
              <span data-testid={`rotation-${which}-last-hour`}>{lastHour(read[which].points)}</span> this hour so far
            </p>
            {which === "old" && oldBehind ? (
              <p className="mb-1 text-xs text-amber-800" role="status" data-testid="rotation-old-counting">
                The old key&apos;s latest use is not in these counts yet (they trail a use by a second or more); reading again…
              </p>
            ) : null}
            <UsageChart
              points={read[which].points}
              label={`${which === "old" ? "Old" : "New"} key, last 24 hours`}
              testId={`rotation-chart-${which}`}
              compact
            />
          </div>
        ))}
      </div>
    </>
  );
}
