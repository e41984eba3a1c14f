import path from "node:path";
import { createDeviceSync, memoryStore, UnavailableError, type DeviceSync, type SyncStore } from "../../packages/device-sync/src/index.js";
import { sqliteStore } from "../../packages/device-sync/src/sqlite.js";
import type { LocalRow, DeviceSource } from "./device";
import { faultyFetch, SimulatedKill, type FaultCounts, type FaultRates } from "./fault-fetch";
import type { Rng } from "./prng";
import type { Timeline } from "./timeline";

/** The API as the library reaches it: a fetch (in-process handler or HTTP), the base ending in /api/v1, a key. */
export interface LibraryTransport {
  send: (request: Request) => Promise<Response>;
  baseUrl: string;
  token: string;
}

export type LibraryKind = "lib-memory" | "lib-sqlite";

/** Pulls that may fail (kills, retries spent) before one cycle gives up on the device. */
const MAX_PULLS_PER_CYCLE = 60;

/**
 * A device that is @groundwork/device-sync itself (D412): nothing but an API key, the library's
 * pull() as the whole sync, over a memory store or a SQLite file, through a fetch that injects
 * faults. A SimulatedKill is a process killed wherever the pull was: the device drops its
 * DeviceSync and opens a new one over the same store (the SQLite file closed and reopened; the
 * memory store kept, as a store that outlives the process would be).
 */
export class LibraryDevice {
  rows = new Map<string, LocalRow>();
  private sync: DeviceSync;
  private store: SyncStore;
  private readonly pageSize: number;
  private readonly fetch: (request: Request) => Promise<Response>;
  private readonly file: string;

  constructor(
    readonly name: string,
    readonly kind: LibraryKind,
    private readonly source: DeviceSource,
    private readonly transport: LibraryTransport,
    private readonly rng: Rng,
    private readonly timeline: Timeline,
    faults: { rates: FaultRates; counts: FaultCounts; directory: string },
  ) {
    this.pageSize = rng.int(3, 7);
    this.file = path.join(faults.directory, `${name.replace(/[^a-z0-9-]/gi, "_")}.db`);
    this.fetch = faultyFetch(this.logged(), () => rng.next(), faults.rates, faults.counts);
    this.store = this.openStore();
    this.sync = this.open();
  }

  /**
   * One sync cycle: pull() until one completes (a killed or unavailable pull goes on from what the
   * store committed). Returns the rows a delta brought (a first walk counts as "more to do").
   */
  async cycle(): Promise<number> {
    for (let pulls = 1; ; pulls++) {
      try {
        const result = await this.sync.pull();
        this.rows = new Map(
          (await this.sync.rows()).map((row) => [row.externalId, { data: row.data, displayOrder: row.displayOrder, updatedAt: row.updatedAt }]),
        );
        return result.kind === "first" ? Number.POSITIVE_INFINITY : result.upserted + result.deleted;
      } catch (error) {
        if (pulls >= MAX_PULLS_PER_CYCLE) throw error;
        if (error instanceof SimulatedKill) {
          this.timeline.add(this.name, `killed (${error.message}): reopening the ${this.kind === "lib-sqlite" ? "SQLite file" : "store"}`, []);
          await this.restart();
        } else if (error instanceof UnavailableError) {
          this.timeline.add(this.name, `pull gave up for now: ${error.message}`, []);
        } else throw error;
      }
    }
  }

  async close(): Promise<void> {
    await this.sync.close();
  }

  private async restart(): Promise<void> {
    if (this.kind === "lib-sqlite") {
      await this.sync.close();
      this.store = this.openStore();
    }
    this.sync = this.open();
  }

  private openStore(): SyncStore {
    return this.kind === "lib-sqlite" ? sqliteStore(this.file) : memoryStore();
  }

  private open(): DeviceSync {
    const store = this.store;
    // A memory store must survive the restart: the new DeviceSync's close() must not end it.
    const kept: SyncStore =
      this.kind === "lib-memory"
        ? { load: (s) => store.load(s), commit: (s, p) => store.commit(s, p), rows: (s) => store.rows(s), close: () => undefined }
        : store;
    return createDeviceSync({
      baseUrl: this.transport.baseUrl,
      apiKey: this.transport.token,
      organizationId: this.source.organizationId,
      dataSourceId: this.source.dataSourceId,
      store: kept,
      pageSize: this.pageSize,
      fetch: this.fetch,
      retry: { attempts: 8, baseDelayMs: 2, maxDelayMs: 20 },
    });
  }

  /** The innermost fetch: the real API, each rows page logged for traces, with a pause now and then so passes commit mid-walk. */
  private logged(): (request: Request) => Promise<Response> {
    return async (request) => {
      if (this.rng.chance(0.5)) await new Promise((resolve) => setTimeout(resolve, this.rng.int(0, 2)));
      const url = new URL(request.url);
      const response = await this.transport.send(request);
      const text = await response.text();
      let ids: string[] = [];
      let shown = `${response.status}`;
      try {
        const body = JSON.parse(text) as {
          data?: { external_id: string; updated_at: string; display_order: number | null; deleted_at: string | null }[];
          error?: { message: string };
        };
        ids = (body.data ?? []).map((row) => row.external_id);
        shown += body.error
          ? ` ${body.error.message}`
          : ` [${(body.data ?? []).map((row) => `${row.external_id}@${row.updated_at.slice(11, 23)}(${row.display_order ?? "-"})${row.deleted_at ? "†" : ""}`).join(" ")}]`;
      } catch {
        shown += " (not JSON)";
      }
      const query = [...url.searchParams].map(([name, value]) => (name === "cursor" ? "cursor=…" : `${name}=${value}`)).join("&");
      this.timeline.add(this.name, `${url.searchParams.has("updated_after") ? "delta" : "walk"} page ${query} → ${shown}`, ids);
      return new Response(text, { status: response.status, statusText: response.statusText, headers: response.headers });
    };
  }
}
