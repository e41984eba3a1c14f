/** Display helpers shared by the sources screens (pure: unit-tested in format.test.ts). */

export const KIND_LABELS: Record<string, string> = { csv: "CSV upload", postgres_table: "Postgres table", crm_object: "CRM object" };

export function kindLabel(kind: string): string {
  return KIND_LABELS[kind] ?? kind;
}

/** "every 15 min", "every 2 h", "on request only" (managed), "uploaded by hand" (CSV). */
export function scheduleLabel(kind: string, intervalSeconds: number | null): string {
  if (kind === "csv") return "uploaded by hand";
  if (intervalSeconds === null) return "on request only";
  if (intervalSeconds % 86_400 === 0) return `every ${intervalSeconds / 86_400} d`;
  if (intervalSeconds % 3_600 === 0) return `every ${intervalSeconds / 3_600} h`;
  if (intervalSeconds % 60 === 0) return `every ${intervalSeconds / 60} min`;
  return `every ${intervalSeconds} s`;
}

/** 850 ms, 4.2 s, 3 min 5 s. */
export function durationLabel(ms: number | null): string {
  if (ms === null) return "—";
  if (ms < 1000) return `${ms} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const minutes = Math.floor(ms / 60_000);
  return `${minutes} min ${Math.round((ms % 60_000) / 1000)} s`;
}

const numberFormat = new Intl.NumberFormat("en");
export const count = (value: number) => numberFormat.format(value);

/**
 * What a source's client-read panels (rows, and the rows table that replaces them) depend on:
 * a pass, an upload or an approval changes one of these, and a panel given the stamp re-reads
 * when it changes (D460). Not a hash: the values themselves, short and readable in a test.
 */
export function sourceStamp(source: {
  dataVersion: number;
  schemaVersion: number;
  liveRows: number;
  tombstones: number;
  lastSyncedAt: string | null;
  updatedAt: string;
}): string {
  return [source.dataVersion, source.schemaVersion, source.liveRows, source.tombstones, source.lastSyncedAt ?? "-", source.updatedAt].join(":");
}

/** "12 min", "2 h 5 min", "3 d": how late an overdue pass is. */
export function lateness(ms: number): string {
  const minutes = Math.max(1, Math.round(ms / 60_000));
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return minutes % 60 ? `${hours} h ${minutes % 60} min` : `${hours} h`;
  return `${Math.floor(hours / 24)} d`;
}

/**
 * A next pass that is due says how late it is ("overdue by 12 min", D487) instead of the
 * relative time's "just now"; within a minute of its time it is "due now". Null: not overdue.
 */
export function overdueLabel(nextDueIso: string, now: number): string | null {
  const late = now - new Date(nextDueIso).getTime();
  if (late < 0) return null;
  return late < 60_000 ? "due now" : `overdue by ${lateness(late)}`;
}
