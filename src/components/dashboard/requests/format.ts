/** "2026-11-25 10:00:00 UTC" (server components cannot call the client module's exactTime). */
export function utcTime(iso: string): string {
  return new Date(iso)
    .toISOString()
    .replace("T", " ")
    .replace(/\.\d+Z$/, " UTC");
}
