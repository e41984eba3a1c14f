import type { Rng } from "./prng";
import type { ApiRow, RowsApi, RowsQuery } from "./rows-api";
import type { Timeline } from "./timeline";

/**
 * The devices written here (the key-only one, the guide's protocol with nothing but an API key,
 * is now @groundwork/device-sync itself: library-device.ts, D412).
 * documented: the guide's protocol (first walk in updated_at order with tombstones, then deltas
 * with updated_after + include_deleted=true), plus the guide's shortcut for platforms that can read the source's
 * data_version and schema_version: a change of either wipes the copy and walks again.
 * naive: what an integrator writes without reading the guide: first walk in the default order
 * (live rows only), mark = the largest updated_at seen, deltas with updated_after +
 * include_deleted=true, and it obeys data_version / schema_version.
 */
export type DeviceKind = "documented" | "naive";

export interface SourceVersions {
  dataVersion: number;
  schemaVersion: number;
}

export interface DeviceSource {
  organizationId: string;
  dataSourceId: string;
  label: string;
  /** The source's versions, read outside the API (the guide's shortcut; library devices never call it). */
  versions(): Promise<SourceVersions>;
}

export interface LocalRow {
  data: Record<string, unknown>;
  displayOrder: number | null;
  updatedAt: string;
}

const MAX_RETRIES = 5;

export class Device {
  readonly rows = new Map<string, LocalRow>();
  private highWaterMark: string | null = null;
  private known: SourceVersions | null = null;

  constructor(
    readonly name: string,
    readonly kind: DeviceKind,
    private readonly source: DeviceSource,
    private readonly api: RowsApi,
    private readonly rng: Rng,
    private readonly timeline: Timeline,
  ) {}

  /**
   * One sync cycle: check the versions, then a full walk (first time, or after a wipe) or a
   * delta. Returns how many rows the delta returned (a full walk counts as "more to do").
   */
  async cycle(): Promise<number> {
    await this.checkVersions();
    if (this.highWaterMark === null) {
      await this.fullWalk();
      return Number.POSITIVE_INFINITY;
    }
    return this.delta();
  }

  /** The shortcut: a moved data_version or schema_version wipes the copy for a fresh first walk. */
  private async checkVersions(): Promise<void> {
    const versions = await this.source.versions();
    if (this.known === null || versions.dataVersion !== this.known.dataVersion || versions.schemaVersion !== this.known.schemaVersion) {
      if (this.known !== null) {
        this.log(`versions moved to data ${versions.dataVersion}, schema ${versions.schemaVersion}: wipe and re-pull`, this.rows.keys());
      }
      this.wipe();
      this.known = versions;
    }
  }

  private wipe(): void {
    this.rows.clear();
    this.highWaterMark = null;
  }

  private async fullWalk(): Promise<void> {
    const query: RowsQuery = this.kind === "naive" ? {} : { sort: "updated_at", include_deleted: "true" };
    const seen = await this.walk("walk", query, () => this.rows.clear());
    this.highWaterMark = seen ?? this.highWaterMark ?? "1970-01-01T00:00:00.000Z";
  }

  private async delta(): Promise<number> {
    let count = 0;
    const mark = this.highWaterMark ?? "1970-01-01T00:00:00.000Z";
    const seen = await this.walk(
      "delta",
      { updated_after: mark, include_deleted: "true" },
      () => undefined,
      () => count++,
    );
    if (seen !== null && seen > mark) this.highWaterMark = seen;
    return count;
  }

  /**
   * Pages to the end, applying each page as it arrives. A 4xx on a cursor (it no longer decodes,
   * or its snapshot expired) restarts the walk from its first page; a 5xx retries the same page.
   * Returns the largest updated_at seen, or null when the walk returned nothing.
   */
  private async walk(kind: "walk" | "delta", base: RowsQuery, onRestart: () => void, onRow: () => void = () => undefined): Promise<string | null> {
    let largest: string | null = null;
    let cursor: string | null = null;
    let retries = 0;
    let restarts = 0;
    for (let page = 0; ; page++) {
      const query: RowsQuery = { ...base, limit: String(this.rng.int(3, 7)), ...(cursor ? { cursor } : {}) };
      const result = await this.api.list(this.source.organizationId, this.source.dataSourceId, query);
      const ids = result.rows.map((row) => row.external_id);
      this.log(`${kind} page ${page} ${describeQuery(query)} → ${result.status} ${result.error ? result.error.message : describeRows(result.rows)}`, ids);
      if (result.status >= 500 && retries < MAX_RETRIES) {
        retries++;
        page--;
        continue;
      }
      if (result.status === 400 && cursor !== null && restarts < MAX_RETRIES) {
        restarts++;
        onRestart();
        largest = null;
        cursor = null;
        page = -1;
        continue;
      }
      if (result.status !== 200) throw new DeviceError(`${this.name}: ${kind} page ${page} answered ${result.status} ${result.error?.message ?? ""}`);
      retries = 0;
      for (const row of result.rows) {
        this.apply(row);
        onRow();
        if (largest === null || row.updated_at > largest) largest = row.updated_at;
      }
      if (result.nextCursor === null) return largest;
      cursor = result.nextCursor;
      // Let passes commit in the middle of the walk.
      if (this.rng.chance(0.5)) await new Promise((resolve) => setTimeout(resolve, this.rng.int(0, 2)));
    }
  }

  private apply(row: ApiRow): void {
    if (row.deleted_at !== null) this.rows.delete(row.external_id);
    else this.rows.set(row.external_id, { data: row.data, displayOrder: row.display_order, updatedAt: row.updated_at });
  }

  private log(text: string, ids: Iterable<string>): void {
    this.timeline.add(this.name, text, ids);
  }
}

class DeviceError extends Error {}

function describeQuery(query: RowsQuery): string {
  return Object.entries(query)
    .map(([name, value]) => (name === "cursor" ? "cursor=…" : `${name}=${value}`))
    .join("&");
}

/** `ext@updated_at(order)`, `†` for a tombstone. */
function describeRows(rows: ApiRow[]): string {
  return `[${rows.map((row) => `${row.external_id}@${row.updated_at.slice(11, 23)}(${row.display_order ?? "-"})${row.deleted_at ? "†" : ""}`).join(" ")}]`;
}
