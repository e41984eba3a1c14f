"use client";

import { Bar, CartesianGrid, ComposedChart, Legend, Line, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { exactTime } from "@/components/ui/relative-time";
import { durationLabel } from "./format";
import type { SyncRun } from "./types";

const SERIES = [
  { key: "inserted", name: "inserted", color: "#16a34a" },
  { key: "updated", name: "updated", color: "#2563eb" },
  { key: "tombstoned", name: "tombstoned", color: "#64748b" },
  { key: "revived", name: "revived", color: "#9333ea" },
  { key: "declined", name: "declined", color: "#d97706" },
] as const;

/** Counts per pass (stacked bars, left axis) and its duration (line, right axis), oldest to newest. */
export function HistoryChart({ runs }: { runs: SyncRun[] }) {
  const finished = runs.filter((run) => run.finishedAt !== null).reverse();
  if (finished.length === 0) return null;
  // Passes within one day are told apart by their time (to the second), longer spans by date.
  const spanMs = new Date(finished[finished.length - 1]!.startedAt).getTime() - new Date(finished[0]!.startedAt).getTime();
  const label = (iso: string) => (spanMs < 86_400_000 ? iso.slice(11, 19) : iso.slice(5, 16).replace("T", " "));
  const data = finished.map((run) => ({
    at: label(new Date(run.startedAt).toISOString()),
    startedAt: run.startedAt,
    inserted: run.inserted,
    updated: run.updated,
    tombstoned: run.tombstoned,
    revived: run.revived,
    declined: run.declined,
    seconds: (run.durationMs ?? 0) / 1000,
  }));
  const summary = `Chart of the last ${finished.length} passes: row counts per pass and durations from ${durationLabel(Math.min(...finished.map((r) => r.durationMs ?? 0)))} to ${durationLabel(Math.max(...finished.map((r) => r.durationMs ?? 0)))}. The table below has every figure.`;
  return (
    <figure role="img" aria-label={summary} data-testid="history-chart" className="h-64 w-full rounded-lg border border-slate-200 bg-white p-2 sm:h-72">
      <ResponsiveContainer width="100%" height="100%">
        <ComposedChart data={data} margin={{ top: 8, right: 4, bottom: 0, left: -8 }}>
          <CartesianGrid stroke="#e2e8f0" vertical={false} />
          <XAxis dataKey="at" tick={{ fontSize: 11 }} minTickGap={24} label={{ value: "UTC", position: "insideBottomRight", offset: -2, fontSize: 10 }} />
          <YAxis yAxisId="rows" tick={{ fontSize: 11 }} allowDecimals={false} />
          <YAxis yAxisId="seconds" orientation="right" tick={{ fontSize: 11 }} tickFormatter={(value: number) => `${Number(value.toPrecision(2))} s`} />
          <Tooltip labelFormatter={(_, payload) => (payload?.[0] ? exactTime(String(payload[0].payload.startedAt)) : "")} />
          <Legend wrapperStyle={{ fontSize: 12 }} />
          {SERIES.map((series) => (
            <Bar key={series.key} yAxisId="rows" dataKey={series.key} name={series.name} stackId="rows" fill={series.color} maxBarSize={28} isAnimationActive={false} />
          ))}
          <Line yAxisId="seconds" dataKey="seconds" name="duration (s)" stroke="#0f172a" strokeWidth={2} dot={{ r: 2 }} isAnimationActive={false} />
        </ComposedChart>
      </ResponsiveContainer>
    </figure>
  );
}
