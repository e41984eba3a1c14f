import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  BadRequestError,
  ConflictError,
  createDeviceSync,
  ForbiddenError,
  memoryStore,
  SourceGoneError,
  StaleCursorError,
  submissionKey,
  submitRecord,
  UnauthorizedError,
  UnavailableError,
  type DeviceSyncOptions,
  type ProgressEvent,
} from "../src/index.js";
import { serverUnderTest } from "./harness";

const server = serverUnderTest();
const slept: number[] = [];
const retry = { sleep: async (ms: number) => void slept.push(ms), baseDelayMs: 1, maxDelayMs: 5_000, attempts: 3 };

function options(sourceId: string, extra: Partial<DeviceSyncOptions> = {}): DeviceSyncOptions {
  return {
    baseUrl: server.baseUrl,
    apiKey: server.keys.read!,
    organizationId: server.organizationId,
    dataSourceId: sourceId,
    store: memoryStore(),
    pageSize: 5,
    retry,
    ...extra,
  };
}

/** A fetch that answers the first `times` requests itself with `status`, then passes through. */
function failing(times: number, status: number, headers: Record<string, string> = {}) {
  let left = times;
  return async (request: Request) => {
    if (left-- > 0) return new Response(JSON.stringify({ error: { code: "unavailable", message: "test" }, request_id: "req_test" }), { status, headers });
    return fetch(request);
  };
}

describe("typed errors, one per class", () => {
  it("401: an unknown key stops with UnauthorizedError, not retried", async () => {
    const source = await server.source("401", 3);
    const error = await createDeviceSync(options(source, { apiKey: "gw_live_not_a_key" }))
      .pull()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnauthorizedError);
    expect(error).toMatchObject({ kind: "unauthorized", status: 401, requestId: expect.stringMatching(/^req_/) });
  });

  it("403: a key without data_sources:read stops with ForbiddenError naming the missing scope", async () => {
    const source = await server.source("403", 3);
    const error = await createDeviceSync(options(source, { apiKey: server.keys.write! }))
      .pull()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ForbiddenError);
    expect(error).toMatchObject({ kind: "forbidden", status: 403, missingScope: "data_sources:read" });
  });

  it("404: a source that is gone stops with SourceGoneError, and drop() empties the copy", async () => {
    const source = await server.source("404", 3);
    const sync = createDeviceSync(options(source));
    await sync.pull();
    await server.db.dataSource.delete({ where: { id: source } });
    await expect(sync.pull()).rejects.toBeInstanceOf(SourceGoneError);
    await sync.drop();
    expect(await sync.rows()).toEqual([]);
    expect((await sync.state()).mark).toBeNull();
    await expect(createDeviceSync(options(randomUUID())).pull()).rejects.toMatchObject({ kind: "source-gone", status: 404 });
  });

  it("429: waits Retry-After's seconds and repeats the request; a real 429 whose wait exceeds the bound gives up at once", async () => {
    const source = await server.source("429", 3);
    slept.length = 0;
    const events: ProgressEvent[] = [];
    const ok = await createDeviceSync(options(source, { fetch: failing(1, 429, { "retry-after": "2" }), onProgress: (event) => events.push(event) })).pull();
    expect(ok.upserted).toBe(3);
    expect(slept).toHaveLength(1);
    expect(slept[0]).toBeGreaterThanOrEqual(2000);
    expect(events.find((event) => event.type === "retry")).toMatchObject({ attempt: 1, reason: expect.stringContaining("429") });

    // The server's own limiter: one request a minute, so the second page is refused with a long Retry-After.
    const limited = await server.mintKey(["data_sources:read"], { rateLimit: 1, rateLimitWindowSeconds: 60 });
    const error = await createDeviceSync(options(source, { apiKey: limited, pageSize: 1 }))
      .pull()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnavailableError);
    expect(error).toMatchObject({ status: 429, code: "rate_limited", attempts: 1 });
  });

  it("5xx: retried with backoff and bounded; nothing committed is lost, and the next pull goes on", async () => {
    const source = await server.source("503", 12);
    slept.length = 0;
    const store = memoryStore();
    // Page 1 passes, then the service is down for longer than 3 attempts.
    let calls = 0;
    const down = async (request: Request) => {
      calls++;
      if (calls >= 2 && calls <= 4) return new Response("<html>bad gateway</html>", { status: 503 });
      return fetch(request);
    };
    const error = await createDeviceSync(options(source, { store, fetch: down }))
      .pull()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnavailableError);
    expect(error).toMatchObject({ status: 503, attempts: 3 });
    expect(slept).toHaveLength(2);
    expect(await createDeviceSync(options(source, { store })).state()).toMatchObject({ mark: null, walk: { kind: "first" } });
    const resumed = await createDeviceSync(options(source, { store, fetch: failing(2, 502) })).pull();
    expect(resumed).toMatchObject({ resumed: true, pages: 2, upserted: 7 });
  });

  it("a network error that never clears (fetch throws, or a body cut mid-page) ends as UnavailableError with no status", async () => {
    const source = await server.source("network", 3);
    const refused = async () => {
      throw new TypeError("fetch failed");
    };
    const error = await createDeviceSync(options(source, { fetch: refused }))
      .pull()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnavailableError);
    expect(error).toMatchObject({ status: null, attempts: 3, message: expect.stringContaining("network error: TypeError: fetch failed") });
    expect((error as Error).cause).toBeInstanceOf(TypeError);
  });

  it("a cursor refused as stale restarts the walk: a first walk drops what it stored, a delta restarts from its mark", async () => {
    const source = await server.source("stale", 12);
    const store = memoryStore();
    const sync = createDeviceSync(options(source, { store }));
    // A first walk left half-way with a cursor that no longer decodes, and a row it must not keep.
    store.commit(source, {
      clear: true,
      changes: [
        { externalId: "ghost", row: { externalId: "ghost", data: { name: "gone meanwhile" }, displayOrder: 1, updatedAt: "2020-01-01T00:00:00.000Z" } },
      ],
      state: { mark: null, walk: { kind: "first", after: null, cursor: "bm90IGEgY3Vyc29y", limit: 5, largest: null }, columns: null },
    });
    const first = await sync.pull();
    expect(first).toMatchObject({ kind: "first", restarts: 1, upserted: 12 });
    expect((await sync.rows()).map((row) => row.externalId)).not.toContain("ghost");

    await server.update(source, "r003", { name: "changed" });
    const mark = first.mark;
    store.commit(source, {
      clear: false,
      changes: [],
      state: { mark, walk: { kind: "delta", after: mark, cursor: "bm90IGEgY3Vyc29y", limit: 5, largest: null }, columns: ["name"] },
    });
    expect(await sync.pull()).toMatchObject({ kind: "delta", restarts: 1, upserted: 1 });

    // A cursor refused every time: bounded, then StaleCursorError.
    const spoil = async (request: Request) => {
      const url = new URL(request.url);
      if (url.searchParams.has("cursor")) url.searchParams.set("cursor", "bm90IGEgY3Vyc29y");
      return fetch(new Request(url, request));
    };
    await expect(createDeviceSync(options(source, { fetch: spoil, maxWalkRestarts: 2 })).pull()).rejects.toBeInstanceOf(StaleCursorError);
  });

  it("another 400 (a mark without an offset) is a BadRequestError, not retried", async () => {
    const source = await server.source("400", 2);
    const store = memoryStore();
    store.commit(source, { clear: true, changes: [], state: { mark: "2026-11-25T10:00:00", walk: null, columns: null } });
    const error = await createDeviceSync(options(source, { store }))
      .pull()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BadRequestError);
    expect(error).toMatchObject({ status: 400, kind: "bad-request" });
  });
});

describe("submitRecord", () => {
  it("derives the idempotency key from the submission: a repeat after any failure records once", async () => {
    const connection = { baseUrl: server.baseUrl, apiKey: server.keys.write!, retry };
    const submission = { organizationId: server.organizationId, formId: server.formId, createdBy: "device-7", fieldValues: { site: "A", count: 3 } };
    // The server records it, then the answer is lost (a 503 in its place): the retry is replayed.
    let first = true;
    const lostAnswer = async (request: Request) => {
      const response = await fetch(request);
      if (!first) return response;
      first = false;
      await response.arrayBuffer();
      return new Response("upstream reset", { status: 503 });
    };
    const created = await submitRecord({ ...connection, fetch: lostAnswer }, submission);
    expect(created).toMatchObject({ replayed: true, idempotencyKey: await submissionKey(submission) });
    // The app calls again with the same values in another key order: the same key and bytes, replayed.
    const again = await submitRecord(connection, { ...submission, fieldValues: { count: 3, site: "A" } });
    expect(again).toMatchObject({ replayed: true, record: { id: created.record.id } });
    expect(await server.db.record.count({ where: { formId: server.formId, createdBy: "device-7" } })).toBe(1);

    const other = await submitRecord(connection, { ...submission, fieldValues: { site: "B", count: 3 } });
    expect(other.replayed).toBe(false);
    expect(other.record.id).not.toBe(created.record.id);
    await expect(submitRecord({ ...connection, apiKey: server.keys.read! }, submission)).rejects.toMatchObject({
      kind: "forbidden",
      missingScope: "records:write",
    });
    // An idempotency key of the app's own, used again with another body: 409, a ConflictError.
    await submitRecord(connection, { ...submission, idempotencyKey: "visit-1" });
    const conflict = await submitRecord(connection, { ...submission, fieldValues: { site: "C" }, idempotencyKey: "visit-1" }).catch((e: unknown) => e);
    expect(conflict).toBeInstanceOf(ConflictError);
    expect(conflict).toMatchObject({ kind: "conflict", status: 409 });
  });
});
