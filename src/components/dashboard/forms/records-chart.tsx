"use client";

import { Bar, BarChart, CartesianGrid, Tooltip, XAxis, YAxis } from "recharts";
import { ChartArea } from "@/components/ui/chart-area";
import type { DayCount } from "./types";

/** Every UTC day from the first to the last with records, zero-filled (at most 90, as the server sends). */
function fillDays(days: DayCount[]): DayCount[] {
  if (days.length === 0) return [];
  const counts = new Map(days.map((d) => [d.day, d.records]));
  const out: DayCount[] = [];
  const last = new Date(`${days[days.length - 1]!.day}T00:00:00Z`).getTime();
  for (let t = new Date(`${days[0]!.day}T00:00:00Z`).getTime(); t <= last; t += 86_400_000) {
    const day = new Date(t).toISOString().slice(0, 10);
    out.push({ day, records: counts.get(day) ?? 0 });
  }
  return out;
}

/** Records per UTC day of the filtered set; the figure carries a text summary for screen readers. */
export function RecordsChart({ days }: { days: DayCount[] }) {
  const data = fillDays(days);
  if (data.length === 0) return null;
  const total = data.reduce((sum, d) => sum + d.records, 0);
  const busiest = data.reduce((max, d) => (d.records > max.records ? d : max), data[0]!);
  const summary = `Records per day (UTC) from ${data[0]!.day} to ${data[data.length - 1]!.day}: ${total} in all, most on ${busiest.day} (${busiest.records}).`;
  return (
    <figure role="img" aria-label={summary} data-testid="records-chart" className="h-56 w-full relative rounded-lg border border-slate-200 bg-white p-2">
      <ChartArea>
        <BarChart data={data} margin={{ top: 8, right: 8, bottom: 0, left: -16 }}>
          <CartesianGrid stroke="#e2e8f0" vertical={false} />
          <XAxis dataKey="day" tick={{ fontSize: 11 }} minTickGap={24} tickFormatter={(day: string) => day.slice(5)} />
          <YAxis tick={{ fontSize: 11 }} allowDecimals={false} />
          <Tooltip formatter={(value) => [value, "records"]} labelFormatter={(day) => `${String(day)} (UTC)`} />
          <Bar dataKey="records" name="records" fill="#2563eb" maxBarSize={28} isAnimationActive={false} />
        </BarChart>
      </ChartArea>
    </figure>
  );
}
