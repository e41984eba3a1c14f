// Plain module (no "use client"): the key page, a server component, sums the hour under way too.

import { STATUS_PALETTE } from "@/components/ui/chart-palette";

/** Colours at least 4.5:1 on white, each with a pattern too (D526). */
export const STATUS_SERIES = STATUS_PALETTE;

export interface UsagePoint {
  hour: string;
  counts: Record<"2xx" | "4xx" | "429" | "5xx", number>;
}

export function totals(points: UsagePoint[]): Record<"2xx" | "4xx" | "429" | "5xx" | "all", number> {
  const sum = { "2xx": 0, "4xx": 0, "429": 0, "5xx": 0, all: 0 };
  for (const p of points) {
    for (const s of STATUS_SERIES) {
      sum[s.key] += p.counts[s.key];
      sum.all += p.counts[s.key];
    }
  }
  return sum;
}
