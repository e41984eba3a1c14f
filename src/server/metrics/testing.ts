/**
 * The value of one sample in Prometheus text output: the metric name and every given label must
 * match (in any order); 0 when no such sample is exposed.
 */
export function sampleValue(text: string, name: string, labels: Record<string, string> = {}): number {
  for (const line of text.split("\n")) {
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const found = new Map([...(match[2] ?? "").matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((pair) => [pair[1], pair[2]]));
    if (Object.entries(labels).every(([key, value]) => found.get(key) === value) && found.size === Object.keys(labels).length) return Number(match[3]);
  }
  return 0;
}
