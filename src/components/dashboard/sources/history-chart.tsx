"use client";

import { Bar, CartesianGrid, ComposedChart, Legend, Line, Tooltip, XAxis, YAxis } from "recharts";
import { ChartArea } from "@/components/ui/chart-area";
import { FAILED_PASS_COLOR, PASS_PALETTE, patternFill } from "@/components/ui/chart-palette";
import { ChartPatterns } from "@/components/ui/chart-patterns";
import { exactTime } from "@/components/ui/relative-time";
import { durationLabel } from "./format";
import type { SyncRun } from "./types";

/** Colours at least 4.5:1 on white, each with a pattern too (D526). */
const SERIES = PASS_PALETTE;
const COLOR_BY_NAME = new Map<string, string>([
  ...SERIES.map((s) => [s.name, s.color] as const),
  ["failed pass", FAILED_PASS_COLOR],
  ["duration (s)", "#0f172a"],
]);

/** Log-scale ticks (D464): powers of ten from below the fastest pass to above the slowest. */
function logTicks(values: number[]): number[] {
  const positive = values.filter((v) => v > 0);
  if (positive.length === 0) return [0.001, 1];
  const low = Math.floor(Math.log10(Math.min(...positive)));
  const high = Math.max(Math.ceil(Math.log10(Math.max(...positive))), low + 1);
  return Array.from({ length: high - low + 1 }, (_, i) => Number((10 ** (low + i)).toPrecision(1)));
}

/**
 * Counts per pass (stacked bars, left axis) and its duration (line, right axis, log scale so a
 * long first pass does not flatten the rest), oldest to newest. A failed pass reads no counts:
 * it is a red band across the chart with its error in the tooltip (D464).
 */
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
    seconds: Math.max(run.durationMs ?? 0, 1) / 1000,
    failed: run.status === "error" ? 1 : 0,
    error: run.error,
  }));
  const failedCount = data.filter((d) => d.failed).length;
  const ticks = logTicks(data.map((d) => d.seconds));
  const summary = `Chart of the last ${finished.length} passes: row counts per pass and durations from ${durationLabel(Math.min(...finished.map((r) => r.durationMs ?? 0)))} to ${durationLabel(Math.max(...finished.map((r) => r.durationMs ?? 0)))}. ${failedCount > 0 ? ` ${failedCount} of them failed (red bands).` : ""} Durations on a log scale. The table below has every figure.`;
  return (
    <figure
      role="img"
      aria-label={summary}
      data-testid="history-chart"
      data-failed={failedCount}
      className="h-64 w-full relative rounded-lg border border-slate-200 bg-white p-2 sm:h-72"
    >
      <ChartArea>
        <ComposedChart data={data} margin={{ top: 8, right: 4, bottom: 0, left: -8 }}>
          <ChartPatterns chart="history" series={SERIES} />
          <CartesianGrid stroke="#e2e8f0" vertical={false} />
          <XAxis dataKey="at" tick={{ fontSize: 11 }} minTickGap={24} label={{ value: "UTC", position: "insideBottomRight", offset: -2, fontSize: 10 }} />
          <YAxis yAxisId="rows" tick={{ fontSize: 11 }} allowDecimals={false} />
          <YAxis
            yAxisId="seconds"
            orientation="right"
            scale="log"
            domain={[ticks[0]!, ticks[ticks.length - 1]!]}
            ticks={ticks}
            allowDataOverflow
            tick={{ fontSize: 11 }}
            tickFormatter={(value: number) => `${Number(value.toPrecision(2))} s`}
          />
          <YAxis yAxisId="outcome" hide domain={[0, 1]} />
          <Tooltip
            labelFormatter={(_, payload) => (payload?.[0] ? exactTime(String(payload[0].payload.startedAt)) : "")}
            formatter={(value, name, item) =>
              name === "failed pass" ? [String((item.payload as { error?: string | null }).error ?? "failed"), "failed"] : [String(value), String(name)]
            }
          />
          <Legend wrapperStyle={{ fontSize: 12 }} formatter={(value: string) => <span style={{ color: COLOR_BY_NAME.get(value) }}>{value}</span>} />
          <Bar
            yAxisId="outcome"
            dataKey="failed"
            name="failed pass"
            fill="#fecaca"
            maxBarSize={28}
            isAnimationActive={false}
            legendType={failedCount > 0 ? "square" : "none"}
          />
          {SERIES.map((series) => (
            <Bar
              key={series.key}
              yAxisId="rows"
              dataKey={series.key}
              name={series.name}
              stackId="rows"
              fill={patternFill("history", series)}
              stroke={series.color}
              strokeWidth={0.5}
              maxBarSize={28}
              isAnimationActive={false}
            />
          ))}
          <Line yAxisId="seconds" dataKey="seconds" name="duration (s)" stroke="#0f172a" strokeWidth={2} dot={{ r: 2 }} isAnimationActive={false} />
        </ComposedChart>
      </ChartArea>
    </figure>
  );
}
