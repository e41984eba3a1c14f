import { patternId, type ChartSeries, type PatternName } from "./chart-palette";

/** White marks over the series colour; "solid" has none (the first series of each chart). */
const MARKS: Record<PatternName, React.ReactNode> = {
  solid: null,
  diagonal: <path d="M-2,2 l4,-4 M0,8 l8,-8 M6,10 l4,-4" stroke="#ffffff" strokeWidth={1.6} />,
  dots: <circle cx={4} cy={4} r={1.6} fill="#ffffff" />,
  horizontal: <path d="M0,4 H8" stroke="#ffffff" strokeWidth={1.6} />,
  crosshatch: <path d="M0,0 L8,8 M8,0 L0,8" stroke="#ffffff" strokeWidth={1.2} />,
  vertical: <path d="M4,0 V8" stroke="#ffffff" strokeWidth={1.6} />,
};

/**
 * The <defs> of a chart's series patterns (D526), placed inside the recharts chart; bars fill
 * with patternFill(chart, series), and the legend's swatches reuse the same ids.
 */
export function ChartPatterns({ chart, series }: { chart: string; series: readonly ChartSeries[] }) {
  return (
    <defs>
      {series.map((s) => (
        <pattern key={s.key} id={patternId(chart, s)} width={8} height={8} patternUnits="userSpaceOnUse" data-pattern={s.pattern}>
          <rect width={8} height={8} fill={s.color} />
          {MARKS[s.pattern]}
        </pattern>
      ))}
    </defs>
  );
}
