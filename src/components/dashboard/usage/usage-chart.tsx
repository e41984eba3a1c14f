"use client";

import { Bar, BarChart, CartesianGrid, Legend, Tooltip, XAxis, YAxis } from "recharts";
import { ChartArea } from "@/components/ui/chart-area";
import { patternFill } from "@/components/ui/chart-palette";
import { ChartPatterns } from "@/components/ui/chart-patterns";
import { exactTime } from "@/components/ui/relative-time";
import { STATUS_SERIES, totals, type UsagePoint } from "./usage-totals";

const COLOR_BY_NAME = new Map<string, string>(STATUS_SERIES.map((s) => [s.name, s.color]));

/** Requests per hour, stacked by status class, from the hourly rollups (UTC hours). */
export function UsageChart({ points, label, testId, compact = false }: { points: UsagePoint[]; label: string; testId?: string; compact?: boolean }) {
  // Pattern ids are per chart: two charts on one page (a rotation's old and new key) keep theirs.
  const chart = testId ?? "usage";
  const sum = totals(points);
  const long = points.length > 48;
  // The last bucket is the hour under way (D467): labelled so, never read as a whole hour.
  // (the series end at the current hour: usage.ts builds one point per hour up to now)
  const data = points.map((p, i) => {
    const partial = i === points.length - 1;
    return { at: partial ? "so far" : long ? p.hour.slice(5, 13).replace("T", " ") + "h" : p.hour.slice(11, 16), hour: p.hour, partial, ...p.counts };
  });
  const summary = `${label}: ${sum.all} requests over ${points.length} hours (the last one is this hour so far) — ${sum["2xx"]} 2xx, ${sum["4xx"]} 4xx, ${sum["429"]} rate limited, ${sum["5xx"]} 5xx.`;
  return (
    <figure
      role="img"
      aria-label={summary}
      data-testid={testId}
      data-total={sum.all}
      className={`${compact ? "h-44" : "h-64 sm:h-72"} w-full relative rounded-lg border border-slate-200 bg-white p-2`}
    >
      <ChartArea>
        <BarChart data={data} margin={{ top: 8, right: 4, bottom: 0, left: -12 }} barCategoryGap={1}>
          <ChartPatterns chart={chart} series={STATUS_SERIES} />
          <CartesianGrid stroke="#e2e8f0" vertical={false} />
          <XAxis dataKey="at" tick={{ fontSize: 11 }} minTickGap={28} label={{ value: "UTC", position: "insideBottomRight", offset: -2, fontSize: 10 }} />
          <YAxis tick={{ fontSize: 11 }} allowDecimals={false} />
          {/* The tooltip's text in the page's ink (the bars keep the series colours). */}
          <Tooltip
            itemStyle={{ color: "#0f172a" }}
            labelFormatter={(_, payload) =>
              payload?.[0] ? `${exactTime(String(payload[0].payload.hour))}${payload[0].payload.partial ? " (this hour so far)" : ""}` : ""
            }
          />
          {compact ? null : (
            <Legend wrapperStyle={{ fontSize: 12 }} formatter={(value: string) => <span style={{ color: COLOR_BY_NAME.get(value) }}>{value}</span>} />
          )}
          {STATUS_SERIES.map((s) => (
            <Bar
              key={s.key}
              dataKey={s.key}
              name={s.name}
              stackId="status"
              fill={patternFill(chart, s)}
              stroke={s.color}
              strokeWidth={0.5}
              isAnimationActive={false}
            />
          ))}
        </BarChart>
      </ChartArea>
    </figure>
  );
}
