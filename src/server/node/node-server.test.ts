import type { Server } from "node:http";
import { connect, type AddressInfo } from "node:net";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseTrustedProxies } from "./client-address";
import { createNodeServer } from "./node-server";

let server: Server;
let port: number;

beforeAll(async () => {
  // Stands in for Next: answers what it saw, so a test can tell what reached the framework.
  server = createNodeServer(
    (req, res) => {
      // As Next does on its first request: a WebSocket hook on the server that never answers.
      (req.socket as unknown as { server: Server }).server.on("upgrade", () => undefined);
      res.setHeader("content-type", "application/json");
      res.end(
        JSON.stringify({
          reached: true,
          upgrade: req.headers.upgrade ?? null,
          connection: req.headers.connection ?? null,
          url: req.url,
          address: req.headers["x-groundwork-client-address"] ?? null,
          forwarded: [req.headers["x-forwarded-host"] ?? null, req.headers["x-forwarded-proto"] ?? null, req.headers["x-forwarded-port"] ?? null],
          policy: req.headers["content-security-policy"] ?? null,
        }),
      );
    },
    pino({ level: "silent" }),
    { trustedProxies: parseTrustedProxies(undefined), https: true },
  );
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Sends bytes exactly as given and reads the whole answer (the server closes or answers once). */
function raw(request: string, to = port): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect(to, "127.0.0.1");
    let data = "";
    socket.on("data", (chunk) => {
      data += chunk.toString("latin1");
      const end = data.indexOf("\r\n\r\n");
      if (end === -1) return;
      const length = /\r\ncontent-length: (\d+)/i.exec(data.slice(0, end));
      if (length && data.length - end - 4 >= Number(length[1])) socket.end();
    });
    socket.on("error", reject);
    socket.on("close", () => {
      const end = data.indexOf("\r\n\r\n");
      const [statusLine, ...lines] = data.slice(0, end === -1 ? data.length : end).split("\r\n");
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const colon = line.indexOf(":");
        headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
      }
      resolve({ status: Number(statusLine?.split(" ")[1] ?? 0), headers, body: end === -1 ? "" : data.slice(end + 4) });
    });
    socket.write(request);
  });
}

const get = (path: string, extra = "") => raw(`GET ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n${extra}\r\n`);

function expectEnvelope(answer: RawAnswer, status: number, code: string) {
  expect(answer.status, answer.body).toBe(status);
  const body = JSON.parse(answer.body) as { error: { code: string }; request_id: string };
  expect(body.error.code).toBe(code);
  expect(body.request_id).toMatch(/^req_[0-9a-z]{24}$/);
  expect(answer.headers["x-request-id"]).toBe(body.request_id);
  expect(answer.headers["x-content-type-options"]).toBe("nosniff");
  return body;
}

describe("the HTTP server in front of the framework", () => {
  it("sends the security headers on every response, including the framework's", async () => {
    const answer = await get("/");
    expect(answer.status).toBe(200);
    expect(answer.headers).toMatchObject({
      "x-content-type-options": "nosniff",
      "x-frame-options": "DENY",
      "referrer-policy": "strict-origin-when-cross-origin",
      "strict-transport-security": "max-age=31536000; includeSubDomains",
    });
  });

  it("sends a script policy with a fresh nonce per response, and hands that nonce to the framework", async () => {
    const [a, b] = [await get("/"), await get("/")];
    const nonce = (answer: RawAnswer) => /'nonce-([^']+)'/.exec(answer.headers["content-security-policy"] ?? "")?.[1];
    expect(nonce(a)).toMatch(/^[A-Za-z0-9+/]{22}==$/);
    expect(nonce(a)).not.toBe(nonce(b));
    const policy = a.headers["content-security-policy"]!;
    for (const directive of ["default-src 'self'", "script-src 'self' 'nonce-", "object-src 'none'", "frame-ancestors 'none'", "form-action 'self'"]) {
      expect(policy).toContain(directive);
    }
    expect(policy).not.toMatch(/unsafe-eval|https?:|\*/);
    expect(policy).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect((JSON.parse(a.body) as { policy: string }).policy).toBe(policy);
  });

  it("answers JSON under /api/ with the static policy that lets nothing run, and mints no nonce for it", async () => {
    const answer = await get("/api/v1/organizations");
    expect(answer.headers["content-security-policy"]).toBe("default-src 'none'; frame-ancestors 'none'");
    expect((JSON.parse(answer.body) as { policy: string | null }).policy).toBeNull();
  });

  it("answers a missing, doubled or malformed Host 400 in the envelope", async () => {
    const noHost = await raw("GET / HTTP/1.1\r\nConnection: close\r\n\r\n");
    expect(expectEnvelope(noHost, 400, "bad_request")).toMatchObject({ error: { details: { header: "Host" } } });
    expectEnvelope(await raw("GET / HTTP/1.0\r\n\r\n"), 400, "bad_request");
    expectEnvelope(await raw("GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\nConnection: close\r\n\r\n"), 400, "bad_request");
    for (const host of ["a b", "x:port", "x:99999", "[::1", "exa mple.com", "a/b", "a@b", "-x", "x..y", "%41", "a\\b", "x:80:80", "é.test", ""]) {
      const answer = await raw(`GET / HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);
      expect(answer.status, JSON.stringify(host)).toBe(400);
      expectEnvelope(answer, 400, "bad_request");
    }
    for (const host of ["localhost:3000", "example.com", "127.0.0.1", "[::1]:8080", "my_host.internal", "example.com."]) {
      const answer = await raw(`GET / HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);
      expect(answer.status, host).toBe(200);
    }
  });

  it("decodes percent-encoded unreserved characters in the path before routing, and only those", async () => {
    const echo = async (path: string) => (JSON.parse((await get(path)).body) as { url: string }).url;
    expect(await echo("/api/v1/organizations/org%2D1%5Fa%7E%2E%41z?q=%2D")).toBe("/api/v1/organizations/org-1_a~.Az?q=%2D");
    expect(await echo("/a%2Fb/%20%25")).toBe("/a%2Fb/%20%25");
    expectEnvelope(await get("/docs/assets/%2E%2E/secret"), 400, "bad_request");
    expectEnvelope(await get("/x/%2e"), 400, "bad_request");
  });

  it("resolves the client address from the socket and ignores a client's own headers", async () => {
    const answer = await get("/", "X-Forwarded-For: 203.0.113.1\r\nX-Groundwork-Client-Address: 203.0.113.2\r\n");
    expect((JSON.parse(answer.body) as { address: string }).address).toBe("127.0.0.1");
  });

  // Issue 41 item 8 (D378): the CSRF check compares Origin with X-Forwarded-Host.
  it("drops X-Forwarded-Host, -Proto and -Port from a peer that is not a trusted proxy", async () => {
    const forged = "X-Forwarded-Host: evil.example\r\nX-Forwarded-Proto: https\r\nX-Forwarded-Port: 443\r\n";
    expect((JSON.parse((await get("/", forged)).body) as { forwarded: unknown }).forwarded).toEqual([null, null, null]);
    const trusting = createNodeServer(
      (req, res) => void res.end(JSON.stringify([req.headers["x-forwarded-host"], req.headers["x-forwarded-proto"], req.headers["x-forwarded-port"]])),
      pino({ level: "silent" }),
      { trustedProxies: parseTrustedProxies("127.0.0.0/8"), https: false },
    );
    await new Promise<void>((resolve) => trusting.listen(0, "127.0.0.1", resolve));
    try {
      const answer = await fetch(`http://127.0.0.1:${(trusting.address() as AddressInfo).port}/`, {
        headers: { "x-forwarded-host": "dash.example.com", "x-forwarded-proto": "https", "x-forwarded-port": "443" },
      });
      expect(await answer.json()).toEqual(["dash.example.com", "https", "443"]);
    } finally {
      await new Promise<void>((resolve) => trusting.close(() => resolve()));
    }
  });

  it("refuses an oversized or unmeasured body to the dashboard and auth endpoints before reading it", async () => {
    // Connection: close, so the client's end after one answer is not read as a truncated body.
    const post = (path: string, headers: string) => raw(`POST ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n${headers}\r\n`);
    expectEnvelope(await post("/api/auth/callback/credentials", "Content-Length: 104857600\r\n"), 413, "payload_too_large");
    expectEnvelope(await post("/api/trpc/users.create", "Content-Length: 104857600\r\n"), 413, "payload_too_large");
    expectEnvelope(await post("/api/trpc/users.create", "Content-Length: 2097152\r\n"), 413, "payload_too_large");
    expectEnvelope(await post("/api/dashboard/organizations/o/sources/s/csv", "Content-Length: 104857600\r\n"), 413, "payload_too_large");
    expectEnvelope(await post("/api/trpc/users.create", "Transfer-Encoding: chunked\r\n"), 411, "length_required");
    const small = await raw("POST /api/trpc/users.create HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}");
    expect(small.status).toBe(200);
  });

  it("answers TRACE, OPTIONS *, PROPFIND, SEARCH and unknown methods 405 with Allow, in the envelope", async () => {
    for (const line of [
      "TRACE / HTTP/1.1",
      "OPTIONS * HTTP/1.1",
      "PROPFIND /api/v1/organizations HTTP/1.1",
      "SEARCH / HTTP/1.1",
      "FOO / HTTP/1.1",
      "BREW /x HTTP/1.1",
    ]) {
      const answer = await raw(`${line}\r\nHost: x\r\nConnection: close\r\n\r\n`);
      expectEnvelope(answer, 405, "method_not_allowed");
      expect(answer.headers.allow, line).toBe("GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS");
    }
  });

  it("answers malformed percent-encoding in a path 400, in the envelope", async () => {
    for (const path of ["/api/v1/%", "/api/v1/organizations/%ff/forms", "/%E0%A4%A", "/docs/%zz"]) {
      expectEnvelope(await get(path), 400, "bad_request");
    }
  });

  it("answers the bare API root 404 in the envelope, not the dashboard's page", async () => {
    for (const path of ["/api/v1", "/api/v1/", "/api/v1?x=1"]) expectEnvelope(await get(path), 404, "not_found");
  });

  it("answers two Authorization headers 400", async () => {
    const answer = await get("/api/v1/organizations", "Authorization: Bearer a\r\nAuthorization: Bearer b\r\n");
    expect(expectEnvelope(answer, 400, "bad_request")).toMatchObject({ error: { details: { header: "Authorization" } } });
  });

  it("serves a request carrying Upgrade as plain HTTP/1.1 instead of dropping it", async () => {
    for (const extra of ["Upgrade: h2c\r\nHTTP2-Settings: AAMAAABkAARAAAAAAAIAAAAA\r\n", "Upgrade: websocket\r\n"]) {
      const answer = await raw(`GET /api/v1/health HTTP/1.1\r\nHost: x\r\nConnection: Upgrade, close\r\n${extra}\r\n`);
      expect(answer.status).toBe(200);
      expect(JSON.parse(answer.body)).toMatchObject({ reached: true, upgrade: null, connection: "close" });
    }
  });

  it("answers what Node's parser rejects in the envelope: oversized headers, control characters, conflicting lengths, unknown Expect", async () => {
    expectEnvelope(await get("/", `X-Big: ${"a".repeat(20_000)}\r\n`), 431, "headers_too_large");
    expectEnvelope(await get("/", "X-Bad: a\u0001b\r\n"), 400, "bad_request");
    expectEnvelope(await raw("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab"), 400, "bad_request");
    expectEnvelope(await raw("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n"), 400, "bad_request");
    expectEnvelope(await get("/", "Expect: teapot\r\n"), 417, "expectation_failed");
  });

  it("answers headers that do not arrive in time 408 request_timeout, in the envelope with a request id", async () => {
    const slow = createNodeServer(() => undefined, pino({ level: "silent" }), {
      trustedProxies: parseTrustedProxies(undefined),
      timeouts: { headersMs: 200, requestMs: 1_000, checkEveryMs: 50 },
    });
    await new Promise<void>((resolve) => slow.listen(0, "127.0.0.1", resolve));
    try {
      // The request line and a header, never the blank line that ends the headers.
      const answer = await raw("GET / HTTP/1.1\r\nHost: x\r\n", (slow.address() as AddressInfo).port);
      expectEnvelope(answer, 408, "request_timeout");
    } finally {
      await new Promise<void>((resolve) => slow.close(() => resolve()));
    }
  });

  it("sets header and request timeouts", () => {
    expect(server.headersTimeout).toBe(15_000);
    expect(server.requestTimeout).toBe(60_000);
  });
});
