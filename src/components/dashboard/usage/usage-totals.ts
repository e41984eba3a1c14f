// Plain module (no "use client"): the key page, a server component, sums the hour under way too.

export const STATUS_SERIES = [
  { key: "2xx", name: "2xx", color: "#16a34a" },
  { key: "4xx", name: "4xx", color: "#d97706" },
  { key: "429", name: "429 rate limited", color: "#7c3aed" },
  { key: "5xx", name: "5xx", color: "#dc2626" },
] as const;

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
