import type { PrismaClient } from "@/server/db/types";
import { canonicalJson } from "@/server/lib/canonical-json";
import type { LocalRow } from "./device";

/** What the comparison reads of a device, of either kind (device.ts, library-device.ts). */
export interface ComparedDevice {
  name: string;
  kind: string;
  rows: Map<string, LocalRow>;
}
import type { Timeline, TimelineEvent } from "./timeline";

type DifferenceKind = "missing" | "extra" | "stale data" | "stale display order";

export interface Difference {
  externalId: string;
  kind: DifferenceKind;
  device: LocalRow | null;
  server: { data: unknown; displayOrder: number | null; updatedAt: string } | null;
}

interface ServerRow {
  external_id: string;
  data: unknown;
  display_order: number | null;
  updated_at: Date;
}

/** The server's live rows, as a device should hold them (a non-finite order is shown as none). */
export async function serverLiveRows(db: PrismaClient, dataSourceId: string): Promise<Map<string, ServerRow>> {
  const rows = await db.$queryRaw<ServerRow[]>`
    SELECT external_id, data, CASE WHEN display_order IN ('Infinity', '-Infinity', 'NaN') THEN NULL ELSE display_order END AS display_order, updated_at
      FROM data_source_rows WHERE data_source_id = ${dataSourceId} AND deleted_at IS NULL`;
  return new Map(rows.map((row) => [row.external_id, row]));
}

export function compareDevice(device: ComparedDevice, server: Map<string, ServerRow>): Difference[] {
  const differences: Difference[] = [];
  const shown = (row: ServerRow) => ({ data: row.data, displayOrder: row.display_order, updatedAt: row.updated_at.toISOString() });
  for (const [externalId, row] of server) {
    const local = device.rows.get(externalId);
    if (!local) differences.push({ externalId, kind: "missing", device: null, server: shown(row) });
    else if (canonicalJson(local.data) !== canonicalJson(row.data)) differences.push({ externalId, kind: "stale data", device: local, server: shown(row) });
    else if (local.displayOrder !== row.display_order) differences.push({ externalId, kind: "stale display order", device: local, server: shown(row) });
  }
  for (const [externalId, local] of device.rows) {
    if (!server.has(externalId)) differences.push({ externalId, kind: "extra", device: local, server: null });
  }
  return differences.sort((a, b) => a.externalId.localeCompare(b.externalId));
}

/** The first difference with what led there: the writer's changes to the row and the device's requests that returned it. */
export function describeDifference(device: ComparedDevice, differences: Difference[], timeline: Timeline, tombstone: string | null): string {
  const first = differences[0];
  if (!first) return "";
  const show = (value: unknown) => JSON.stringify(value);
  const lines = [
    `  ${device.name} (${device.kind}): ${differences.length} row(s) differ: ${differences
      .slice(0, 12)
      .map((d) => `${d.externalId} ${d.kind}`)
      .join(", ")}${differences.length > 12 ? ", …" : ""}`,
    `  row ${first.externalId} (${first.kind})`,
    `    device has: ${first.device ? show(first.device) : "nothing"}`,
    `    server has: ${first.server ? show(first.server) : tombstone ? `a tombstone ${tombstone}` : "no live row"}`,
    `    what led there (writer changes to ${first.externalId}, and ${device.name}'s requests that returned it):`,
  ];
  const picked = new Map<number, TimelineEvent>();
  for (const event of timeline.about(first.externalId, { actors: (actor) => actor === "writer" || actor === device.name, max: 10 })) {
    picked.set(event.seq, event);
    if (event.actor !== "writer") continue;
    // The device's requests just before and after each change show where its walk stood.
    const own = timeline.events.filter((other) => other.actor === device.name);
    const before = own.filter((other) => other.seq < event.seq).at(-1);
    const after = own.find((other) => other.seq > event.seq);
    if (before) picked.set(before.seq, before);
    if (after) picked.set(after.seq, after);
  }
  for (const event of [...picked.values()].sort((a, b) => a.seq - b.seq).slice(-18)) {
    lines.push(`      #${event.seq} ${event.actor}: ${truncate(event.text, 400)}`);
  }
  return lines.join("\n");
}

function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
