import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createDeviceSync, memoryStore, type DeviceSync, type ProgressEvent, type SyncStore } from "../src/index.js";
import { sqliteStore } from "../src/sqlite.js";
import { emptyFaultCounts, faultyFetch, SimulatedKill } from "@/simulator/fault-fetch";
import { createRng } from "@/simulator/prng";
import { serverUnderTest, type Server } from "./harness";

const server = serverUnderTest();
const quick = { sleep: async () => undefined, baseDelayMs: 1 };
const tmp = mkdtempSync(path.join(os.tmpdir(), "device-sync-"));
let files = 0;
const stores: Record<string, () => SyncStore> = { memory: () => memoryStore(), sqlite: () => sqliteStore(path.join(tmp, `s${files++}.db`)) };

function open(sourceId: string, store: SyncStore, extra: Partial<Parameters<typeof createDeviceSync>[0]> = {}): DeviceSync {
  return createDeviceSync({
    baseUrl: server.baseUrl,
    apiKey: server.keys.read!,
    organizationId: server.organizationId,
    dataSourceId: sourceId,
    store,
    pageSize: 5,
    retry: quick,
    ...extra,
  });
}

async function expectEqual(server: Server, sourceId: string, sync: DeviceSync) {
  const live = await server.live(sourceId);
  const rows = await sync.rows();
  expect(rows.map((row) => row.externalId).sort()).toEqual([...live.keys()].sort());
  for (const row of rows) expect({ data: row.data, displayOrder: row.displayOrder }).toEqual(live.get(row.externalId));
}

describe.each(Object.keys(stores))("createDeviceSync with the %s store", (kind) => {
  it("walks first, then pulls deltas with changes and tombstones, and an empty delta changes nothing", async () => {
    const source = await server.source(`walk ${kind}`, 23);
    const sync = open(source, stores[kind]!());
    const first = await sync.pull();
    expect(first).toMatchObject({ kind: "first", resumed: false, pages: 5, upserted: 23, deleted: 0, columns: ["name"], columnsChanged: true });
    await expectEqual(server, source, sync);

    await server.update(source, "r001", { name: "changed" });
    await server.remove(source, "r002");
    await server.add(source, "new", { name: "new" }, 0.5);
    const delta = await sync.pull();
    expect(delta).toMatchObject({ kind: "delta", upserted: 2, deleted: 1, columnsChanged: false });
    expect(delta.mark! > first.mark!).toBe(true);
    await expectEqual(server, source, sync);
    expect((await sync.rows()).slice(0, 3).map((row) => row.externalId)).toEqual(["r000", "new", "r001"]);

    expect(await sync.pull()).toMatchObject({ kind: "delta", pages: 1, upserted: 0, deleted: 0, mark: delta.mark });
    await sync.close();
  });

  it("rebuilds the column set from the rows alone when a key is added to or dropped from data", async () => {
    const source = await server.source(`columns ${kind}`, 7);
    const events: ProgressEvent[] = [];
    const sync = open(source, stores[kind]!(), { onProgress: (event) => events.push(event) });
    await sync.pull();
    events.length = 0;
    for (let i = 0; i < 7; i++) await server.update(source, `r00${i}`, { label: `row ${i}`, code: i });
    expect(await sync.pull()).toMatchObject({ kind: "delta", upserted: 7, columns: ["code", "label"], columnsChanged: true });
    expect(events.filter((event) => event.type === "columns")).toEqual([{ type: "columns", columns: ["code", "label"], previous: ["name"] }]);
    expect((await sync.state()).columns).toEqual(["code", "label"]);
    await expectEqual(server, source, sync);
    await sync.close();
  });
});

describe("interruptions", () => {
  it("a process killed between pages resumes from the committed cursor: nothing lost, nothing sent twice (SQLite reopened)", async () => {
    const source = await server.source("killed", 23);
    const file = path.join(tmp, "killed.db");
    let requests = 0;
    const killAt3 = async (request: Request) => {
      if (++requests === 3) throw new SimulatedKill("killed");
      return fetch(request);
    };
    const before = open(source, sqliteStore(file), { fetch: killAt3 });
    await expect(before.pull()).rejects.toBeInstanceOf(SimulatedKill);
    await before.close();

    const after = open(source, sqliteStore(file));
    const state = await after.state();
    expect(state.mark).toBeNull();
    expect(state.walk).toMatchObject({ kind: "first", limit: 5 });
    expect(state.walk?.cursor).toEqual(expect.any(String));
    expect(await after.rows()).toHaveLength(10);
    await server.update(source, "r000", { name: "changed during the kill" });
    const resumed = await after.pull();
    // Pages 3–5 of the same snapshot: 13 rows, none of the first 10 again; the change comes with the next delta.
    expect(resumed).toMatchObject({ kind: "first", resumed: true, pages: 3, upserted: 13 });
    expect(await after.pull()).toMatchObject({ kind: "delta", upserted: 1 });
    await expectEqual(server, source, after);
    await after.close();
  });

  it("cut connections, 429s and 503s are retried with the same cursor, and the copy converges", async () => {
    const source = await server.source("faults", 40);
    const counts = emptyFaultCounts();
    const rng = createRng(48);
    const retries: ProgressEvent[] = [];
    const sync = open(source, memoryStore(), {
      fetch: faultyFetch(
        (request) => fetch(request),
        () => rng.next(),
        { cut: 0.2, rateLimited: 0.15, unavailable: 0.15, kill: 0 },
        counts,
      ),
      retry: { ...quick, attempts: 30 },
      onProgress: (event) => event.type === "retry" && retries.push(event),
    });
    expect(await sync.pull()).toMatchObject({ kind: "first", pages: 8, upserted: 40 });
    for (let i = 0; i < 10; i++) await server.update(source, `r0${10 + i}`, { name: `changed ${i}` });
    await sync.pull();
    await expectEqual(server, source, sync);
    expect(counts.cut).toBeGreaterThan(0);
    expect(counts.rateLimited + counts.unavailable).toBeGreaterThan(0);
    expect(retries.length).toBe(counts.cut + counts.rateLimited + counts.unavailable);
  });
});
