"use client";

import { useEffect, useState } from "react";

const units: [Intl.RelativeTimeFormatUnit, number][] = [
  ["year", 365 * 86_400],
  ["month", 30 * 86_400],
  ["day", 86_400],
  ["hour", 3_600],
  ["minute", 60],
];

export function relativeTime(iso: string, now: number): string {
  const seconds = Math.round((new Date(iso).getTime() - now) / 1000);
  if (Math.abs(seconds) < 45) return "just now";
  const format = new Intl.RelativeTimeFormat("en", { numeric: "auto" });
  for (const [unit, size] of units) {
    if (Math.abs(seconds) >= size || unit === "minute") return format.format(Math.round(seconds / size), unit);
  }
  return "just now";
}

export function exactTime(iso: string): string {
  return new Date(iso)
    .toISOString()
    .replace("T", " ")
    .replace(/\.\d+Z$/, " UTC");
}

/** "3 minutes ago", with the exact UTC time on hover and for assistive technology. */
export function RelativeTime({ iso, empty = "never" }: { iso: string | null; empty?: string }) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 15_000);
    return () => clearInterval(timer);
  }, []);
  if (!iso) return <span className="text-slate-500">{empty}</span>;
  return (
    <time
      dateTime={iso}
      title={exactTime(iso)}
      suppressHydrationWarning
      className="cursor-help underline decoration-dotted decoration-slate-300 underline-offset-2"
    >
      {relativeTime(iso, now)}
    </time>
  );
}
