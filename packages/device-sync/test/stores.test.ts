import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { memoryStore, type PageCommit, type StoredRow, type SyncStore } from "../src/index.js";
import { sqliteStore } from "../src/sqlite.js";

const tmp = mkdtempSync(path.join(os.tmpdir(), "device-sync-stores-"));
const row = (externalId: string, data: Record<string, unknown> = { name: externalId }, displayOrder: number | null = 1): StoredRow => ({
  externalId,
  data,
  displayOrder,
  updatedAt: "2026-11-25T10:00:00.123Z",
});
const state = (mark: string | null): PageCommit["state"] => ({ mark, walk: null, columns: null });
const byId = (rows: StoredRow[]) => rows.map((r) => r.externalId).sort();

describe.each([
  ["memory", () => memoryStore()],
  ["sqlite", () => sqliteStore(path.join(tmp, `${Math.random()}.db`))],
] as const)("the %s store", (_name, make: () => SyncStore) => {
  it("applies a page's upserts and tombstones with its state, per source", async () => {
    const store = make();
    expect(await store.load("s1")).toBeNull();
    await store.commit("s1", {
      clear: true,
      changes: [
        { externalId: "a", row: row("a") },
        { externalId: "b", row: row("b", { n: 1.5, nested: { x: [1] } }, null) },
      ],
      state: state(null),
    });
    await store.commit("s2", { clear: true, changes: [{ externalId: "a", row: row("a") }], state: state("2026-11-25T10:00:00.000Z") });
    await store.commit("s1", {
      clear: false,
      changes: [
        { externalId: "a", row: null },
        { externalId: "missing", row: null },
        { externalId: "c", row: row("c") },
      ],
      state: state("2026-11-25T10:00:00.123Z"),
    });
    expect(byId(await store.rows("s1"))).toEqual(["b", "c"]);
    expect((await store.rows("s1")).find((r) => r.externalId === "b")).toEqual(row("b", { n: 1.5, nested: { x: [1] } }, null));
    expect(await store.load("s1")).toEqual(state("2026-11-25T10:00:00.123Z"));
    expect(byId(await store.rows("s2"))).toEqual(["a"]);
    await store.commit("s1", { clear: true, changes: [], state: state(null) });
    expect(await store.rows("s1")).toEqual([]);
    await store.close();
  });

  it("commits all of a page or none of it", async () => {
    const store = make();
    await store.commit("s", { clear: true, changes: [{ externalId: "a", row: row("a") }], state: state("m1") });
    // A value JSON cannot hold fails half-way through the page (sqlite) or before it (memory).
    const bad = { externalId: "x", row: row("x", { big: 1n } as unknown as Record<string, unknown>) };
    let failed = false;
    try {
      await store.commit("s", { clear: true, changes: [{ externalId: "b", row: row("b") }, bad], state: state("m2") });
    } catch {
      failed = true;
    }
    expect(failed).toBe(true);
    expect(byId(await store.rows("s"))).toEqual(["a"]);
    expect((await store.load("s"))?.mark).toBe("m1");
    await store.close();
  });
});

describe("sqliteStore", () => {
  it("keeps everything across a close and a reopen of the file (an app restarted)", async () => {
    const file = path.join(tmp, "reopen.db");
    const first = sqliteStore(file);
    const walk = { kind: "first" as const, after: null, cursor: "c1", limit: 5, largest: "2026-11-25T10:00:00.123Z" };
    await first.commit("s", { clear: true, changes: [{ externalId: "a", row: row("a") }], state: { mark: null, walk, columns: null } });
    await first.close();
    const second = sqliteStore(file);
    expect(await second.load("s")).toEqual({ mark: null, walk, columns: null });
    expect(await second.rows("s")).toEqual([row("a")]);
    await second.close();
  });
});
