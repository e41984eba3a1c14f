/**
 * The charts' series colours and their second cue (D526). Every colour is at least 4.5:1 against
 * the charts' white background (chart-palette.test.ts computes it), so a legend's text in the
 * series colour reads as body text does; and each series but the first also has a pattern, so
 * series are told apart without colour (print, colour blindness, a grey screen share).
 */
export const CHART_BACKGROUND = "#ffffff";

export type PatternName = "solid" | "diagonal" | "dots" | "horizontal" | "crosshatch" | "vertical";

export interface ChartSeries {
  key: string;
  name: string;
  color: string;
  pattern: PatternName;
}

/** WCAG 2 relative luminance of a #rrggbb colour. */
function luminance(hex: string): number {
  const match = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex);
  if (!match) throw new Error(`not a #rrggbb colour: ${hex}`);
  const [r, g, b] = match.slice(1).map((part) => {
    const c = parseInt(part, 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}

/** WCAG 2 contrast ratio of two #rrggbb colours (1 to 21). */
export function contrastRatio(a: string, b: string): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (light! + 0.05) / (dark! + 0.05);
}

/** The fill of a series: its pattern, defined once per chart by <ChartPatterns>. */
export function patternId(chart: string, series: Pick<ChartSeries, "key">): string {
  return `chart-pattern-${chart}-${series.key.replace(/[^a-z0-9]/gi, "_")}`;
}

export const patternFill = (chart: string, series: Pick<ChartSeries, "key">) => `url(#${patternId(chart, series)})`;

/** Requests per hour by status class (usage-chart.tsx). */
export const STATUS_PALETTE = [
  { key: "2xx", name: "2xx", color: "#15803d", pattern: "solid" },
  { key: "4xx", name: "4xx", color: "#b45309", pattern: "diagonal" },
  { key: "429", name: "429 rate limited", color: "#6d28d9", pattern: "dots" },
  { key: "5xx", name: "5xx", color: "#b91c1c", pattern: "crosshatch" },
] as const satisfies readonly ChartSeries[];

/** Row counts per pass (history-chart.tsx). */
export const PASS_PALETTE = [
  { key: "inserted", name: "inserted", color: "#15803d", pattern: "solid" },
  { key: "updated", name: "updated", color: "#1d4ed8", pattern: "diagonal" },
  { key: "tombstoned", name: "tombstoned", color: "#475569", pattern: "horizontal" },
  { key: "revived", name: "revived", color: "#7e22ce", pattern: "dots" },
  { key: "declined", name: "declined", color: "#b45309", pattern: "crosshatch" },
] as const satisfies readonly ChartSeries[];

/** The failed-pass band's legend text (the band itself is a pale background, not a series). */
export const FAILED_PASS_COLOR = "#b91c1c";
