"use client";

import { useEffect, useState } from "react";
import { RelativeTime } from "@/components/ui/relative-time";
import { overdueLabel } from "./format";
import type { SourceSummary } from "./types";

/** When the next pass is due, or how late it is (D487); re-read every 15 s. */
export function NextPass({ source }: { source: Pick<SourceSummary, "running" | "pausedAt" | "nextDueAt"> }) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 15_000);
    return () => clearInterval(timer);
  }, []);
  if (source.running) return <>running now</>;
  if (source.pausedAt) return <span className="text-slate-500">paused: none until resumed</span>;
  if (!source.nextDueAt) return <span className="text-slate-500">not scheduled</span>;
  const overdue = overdueLabel(source.nextDueAt, now);
  if (overdue) {
    return (
      <span className="text-amber-800" data-testid="next-pass-overdue" suppressHydrationWarning>
        {overdue}
      </span>
    );
  }
  return <RelativeTime iso={source.nextDueAt} />;
}
