import pino from "pino";
import { createMemoryRateLimitStore } from "@/server/modules/rate-limit/rate-limit-store";
import { describe, expect, it } from "vitest";
import type { PrismaClient } from "@/server/db/generated/client";
import { echoRouter } from "./__fixtures__/echo-router";
import type { RequestLogEntry } from "@/server/modules/request-log/entry";
import type { RequestLogWriter } from "@/server/modules/request-log/writer";
import { createApiHandler, requestLineLevel, SLOW_REQUEST_MS } from "./handle-api-request";
import { MAX_BODY_BYTES } from "@/server/transport/read-body";

const handler = createApiHandler({
  router: echoRouter,
  db: () => ({}) as PrismaClient,
  log: pino({ level: "silent" }),
  rateLimiter: createMemoryRateLimitStore(),
});
const base = "http://localhost/api/v1";

async function call(path: string, init: RequestInit = {}) {
  const res = await handler(new Request(`${base}${path}`, init));
  const text = await res.text();
  return { res, text, body: JSON.parse(text) as Record<string, unknown> & { error?: { code: string; message: string } } };
}

function expectRequestId(res: Response, body: Record<string, unknown>) {
  expect(body.request_id).toMatch(/^req_[0-9a-z]{24}$/);
  expect(res.headers.get("x-request-id")).toBe(body.request_id);
}

describe("the /api/v1 pipeline", () => {
  it("wraps a success in { data, request_id } with the header equal to the body", async () => {
    const { res, body } = await call("/things/abc?limit=5");
    expect(res.status).toBe(200);
    expect(body.data).toEqual({ id: "abc", limit: 5 });
    expectRequestId(res, body);
  });

  it("mints a distinct request id per request", async () => {
    const a = await call("/things/a");
    const b = await call("/things/b");
    expect(a.body.request_id).not.toBe(b.body.request_id);
  });

  it("answers 201 where the procedure declares it and passes the raw body bytes on", async () => {
    const raw = '{ "name" :  "pump" }';
    const { res, body } = await call("/things", { method: "POST", body: raw, headers: { "content-type": "application/json" } });
    expect(res.status).toBe(201);
    expect(body.data).toEqual({ name: "pump", raw_bytes: Buffer.byteLength(raw) });
  });

  it("answers an unknown path with 404 in the error shape", async () => {
    const { res, body } = await call("/does-not-exist");
    expect(res.status).toBe(404);
    expect(body.error?.code).toBe("not_found");
    expect(Object.keys(body).sort()).toEqual(["error", "request_id"]);
    expectRequestId(res, body);
  });

  it("answers a wrong method with 405 and Allow", async () => {
    const { res, body } = await call("/things/abc", { method: "DELETE" });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("GET");
    expect(body.error?.code).toBe("method_not_allowed");
    expectRequestId(res, body);
  });

  it("answers invalid JSON with 400, not 5xx", async () => {
    const { res, body } = await call("/things", { method: "POST", body: "{not json", headers: { "content-type": "application/json" } });
    expect(res.status).toBe(400);
    expect(body.error?.code).toBe("bad_request");
    expectRequestId(res, body);
  });

  it("answers a wrong content type with 415", async () => {
    const { res, body } = await call("/things", { method: "POST", body: "name=x", headers: { "content-type": "text/plain" } });
    expect(res.status).toBe(415);
    expect(body.error?.code).toBe("unsupported_media_type");
  });

  it("answers a body above the limit with 413, declared or streamed", async () => {
    const big = JSON.stringify({ name: "x".repeat(MAX_BODY_BYTES) });
    const declared = await call("/things", { method: "POST", body: big, headers: { "content-type": "application/json" } });
    expect(declared.res.status).toBe(413);
    expect(declared.body.error?.code).toBe("payload_too_large");
    const stream = new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(big));
        controller.close();
      },
    });
    const streamed = await call("/things", {
      method: "POST",
      body: stream,
      headers: { "content-type": "application/json" },
      duplex: "half",
    } as RequestInit);
    expect(streamed.res.status).toBe(413);
  });

  it("names the offending field on a validation error", async () => {
    const query = await call("/things/abc?limit=500");
    expect(query.res.status).toBe(400);
    expect(query.body.error?.message).toContain("limit");
    const missing = await call("/things", { method: "POST", body: "{}", headers: { "content-type": "application/json" } });
    expect(missing.res.status).toBe(400);
    expect(missing.body.error?.message).toContain("name");
  });

  it("treats an empty POST body as {} so validation, not parsing, answers", async () => {
    const { res, body } = await call("/things", { method: "POST" });
    expect(res.status).toBe(400);
    expect(body.error?.message).toContain("name");
  });

  it("maps a domain AppError to its status and keeps its details", async () => {
    const { res, body } = await call("/things/conflict", { method: "POST", body: "{}", headers: { "content-type": "application/json" } });
    expect(res.status).toBe(409);
    expect(body.error).toEqual({ code: "conflict", message: "Already exists.", details: { field: "name" } });
  });

  it("redacts an unexpected error to a 500 without internals", async () => {
    const { res, text, body } = await call("/things/crash/now");
    expect(res.status).toBe(500);
    expect(body.error?.code).toBe("internal_error");
    expect(text).not.toContain("secret internal detail");
    expect(text).not.toContain("/srv/app.ts");
    expect(text).not.toMatch(/at .*\(.*:\d+:\d+\)/);
    expectRequestId(res, body);
  });

  it("accepts the JSON media type in any letter case, as RFC 9110 says", async () => {
    for (const contentType of ["Application/JSON", "application/json; charset=UTF-8"]) {
      const { res } = await call("/things", { method: "POST", body: '{"name":"pump"}', headers: { "content-type": contentType } });
      expect(res.status, contentType).toBe(201);
    }
  });

  it("refuses a NUL character, an unpaired surrogate or extreme nesting (which Postgres cannot store) with a 400 naming where it is, not a 500", async () => {
    const json = { "content-type": "application/json" };
    const inBody = await call("/things", { method: "POST", body: '{"name":"a\\u0000b"}', headers: json });
    expect(inBody.res.status).toBe(400);
    expect(inBody.body.error?.message).toContain("name: must not contain the NUL character");
    expectRequestId(inBody.res, inBody.body);
    const nested = await call("/things", { method: "POST", body: '{"name":"a","tags":[{"x":"ok"},{"y":"\\u0000"}]}', headers: json });
    expect(nested.body.error?.message).toContain("tags.1.y");
    const inKey = await call("/things", { method: "POST", body: '{"name":"a","meta":{"k\\u0000":1}}', headers: json });
    expect(inKey.res.status).toBe(400);
    const surrogate = await call("/things", { method: "POST", body: '{"name":"a","tags":["\\ud83d\\ude00","\\udc00"]}', headers: json });
    expect(surrogate.res.status).toBe(400);
    expect(surrogate.body.error?.message).toContain("tags.1: must not contain an unpaired UTF-16 surrogate");
    const deep = await call("/things", { method: "POST", body: `{"name":"a","tags":${"[".repeat(200_000)}${"]".repeat(200_000)}}`, headers: json });
    expect(deep.res.status).toBe(400);
    expect(deep.body.error?.message).toContain("tags.0.0.0…: must not nest arrays and objects more than 100 levels deep");
    expectRequestId(deep.res, deep.body);
    const inQuery = await call("/things/abc?limit=1&note=%00");
    expect(inQuery.res.status).toBe(400);
    expect(inQuery.body.error?.message).toContain("note");
  });
});

describe("the /api/v1 pipeline under hostile input", () => {
  /** A body that counts how often the server pulled from it. */
  function countingBody(bytes: Uint8Array) {
    const counter = { pulls: 0 };
    let sent = false;
    const stream = new ReadableStream<Uint8Array>(
      {
        pull(controller) {
          counter.pulls++;
          if (sent) return controller.close();
          sent = true;
          controller.enqueue(bytes);
        },
      },
      { highWaterMark: 0 },
    ); // pulled only when someone reads
    return { stream, counter };
  }

  it("answers an unauthenticated request 401 without reading a byte of its body", async () => {
    const nested = new TextEncoder().encode(`${"[".repeat(98)}${"0,".repeat(400_000)}0${"]".repeat(98)}`);
    for (const authorization of [undefined, "Basic dXNlcjpwYXNz", "Bearer not-a-token"]) {
      const { stream, counter } = countingBody(nested);
      const res = await handler(
        new Request(`${base}/guarded`, {
          method: "POST",
          body: stream,
          headers: { "content-type": "application/json", ...(authorization ? { authorization } : {}) },
          duplex: "half",
        } as RequestInit),
      );
      expect(res.status, String(authorization)).toBe(401);
      expect(res.headers.get("www-authenticate")).toBe("Bearer");
      expect(counter.pulls, String(authorization)).toBe(0);
    }
  });

  it("answers two Authorization headers 400: which one is meant is ambiguous", async () => {
    const headers = new Headers({ "content-type": "application/json" });
    headers.append("authorization", "Bearer gw_live_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA");
    headers.append("authorization", "Bearer gw_live_BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB");
    const { res, body } = await call("/guarded", { method: "POST", body: "{}", headers });
    expect(res.status).toBe(400);
    expect(body.error?.message).toContain("exactly one Authorization header");
    expectRequestId(res, body);
  });

  it("logs a client that aborts its upload as a client abort, answering 400 rather than 500", async () => {
    const lines: Array<Record<string, unknown>> = [];
    const log = pino({ level: "info" }, { write: (line: string) => lines.push(JSON.parse(line) as Record<string, unknown>) });
    const logged = createApiHandler({ router: echoRouter, db: () => ({}) as PrismaClient, log, rateLimiter: createMemoryRateLimitStore() });
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"name":'));
        controller.error(new Error("aborted"));
      },
    });
    const res = await logged(
      new Request(`${base}/things`, { method: "POST", body: stream, headers: { "content-type": "application/json" }, duplex: "half" } as RequestInit),
    );
    expect(res.status).toBe(400);
    expect(lines.filter((line) => (line.level as number) >= 50)).toEqual([]);
    expect(lines.find((line) => line.msg === "request")).toMatchObject({ status: 400, client_aborted: true });
  });

  it("writes a quick success's request line at debug when the request log keeps it, and every refusal at info (D351)", async () => {
    const linesAt = async (level: string, requestLog: RequestLogWriter | null) => {
      const lines: Array<Record<string, unknown>> = [];
      const log = pino({ level }, { write: (line: string) => lines.push(JSON.parse(line) as Record<string, unknown>) });
      const logged = createApiHandler({ router: echoRouter, db: () => ({}) as PrismaClient, log, rateLimiter: createMemoryRateLimitStore(), requestLog });
      expect((await logged(new Request(`${base}/things/abc`))).status).toBe(200);
      expect((await logged(new Request(`${base}/does-not-exist`))).status).toBe(404);
      return lines.filter((line) => line.msg === "request").map((line) => [line.status, line.level]);
    };
    const recorded: RequestLogEntry[] = [];
    const writer: RequestLogWriter = { record: (entry) => recorded.push(entry), flush: async () => {}, close: async () => {} };
    expect(await linesAt("info", writer)).toEqual([[404, 30]]);
    expect(recorded.map((entry) => entry.status)).toEqual([200, 404]);
    expect(await linesAt("debug", writer)).toEqual([
      [200, 20],
      [404, 30],
    ]);
    // Without the request log the line is the only trace of a success: it stays at info.
    expect(await linesAt("info", null)).toEqual([
      [200, 30],
      [404, 30],
    ]);
  });

  it("chooses the request line's level from the answer", () => {
    expect(requestLineLevel(200, 5, false, true)).toBe("debug");
    expect(requestLineLevel(304, 5, false, true)).toBe("debug");
    expect(requestLineLevel(200, SLOW_REQUEST_MS, false, true)).toBe("info");
    expect(requestLineLevel(400, 5, true, true)).toBe("info");
    expect(requestLineLevel(429, 5, false, true)).toBe("info");
    expect(requestLineLevel(503, 5, false, true)).toBe("info");
    expect(requestLineLevel(200, 5, false, false)).toBe("info");
  });

  it("refuses a 1 MiB body of deeply nested arrays with a 400 naming where, building no path per node", async () => {
    const body = `{"name":"a","tags":${"[".repeat(150)}${"0,".repeat(400_000)}0${"]".repeat(150)}}`;
    const { res, body: answer } = await call("/things", { method: "POST", body, headers: { "content-type": "application/json" } });
    expect(res.status).toBe(400);
    expect(answer.error?.message).toContain("tags.0.0.0…: must not nest arrays and objects more than 100 levels deep");
  });

  it("answers query parameters named after Object.prototype members 400, not 500", async () => {
    for (const name of ["__proto__", "constructor", "toString", "hasOwnProperty", "valueOf"]) {
      const { res, body } = await call(`/things/abc?${name}=1`);
      expect(res.status, name).toBe(400);
      expect(body.error?.message).toContain(name);
      expectRequestId(res, body);
    }
  });
});
