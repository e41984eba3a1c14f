import { connect } from "node:net";
import { expect, test } from "@playwright/test";

// Raw sockets against the real `npm start` server (Next behind the custom node server): what a
// hostile client sends that an HTTP library would refuse to send.

const port = Number(process.env.E2E_PORT ?? 3100);

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

function raw(request: string): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    let data = "";
    const timer = setTimeout(() => socket.destroy(), 10_000);
    socket.on("data", (chunk) => {
      data += chunk.toString("latin1");
      const end = data.indexOf("\r\n\r\n");
      const length = end === -1 ? null : /\r\ncontent-length: (\d+)/i.exec(data.slice(0, end));
      if (length && data.length - end - 4 >= Number(length[1])) socket.end();
    });
    socket.on("error", reject);
    socket.on("close", () => {
      clearTimeout(timer);
      const end = data.indexOf("\r\n\r\n");
      const [statusLine, ...lines] = data.slice(0, end === -1 ? data.length : end).split("\r\n");
      const headers: Record<string, string> = {};
      for (const line of lines) headers[line.slice(0, line.indexOf(":")).toLowerCase()] = line.slice(line.indexOf(":") + 1).trim();
      const body = end === -1 ? "" : data.slice(end + 4);
      resolve({ status: Number(statusLine?.split(" ")[1] ?? 0), headers, body: headers["transfer-encoding"] === "chunked" ? dechunk(body) : body });
    });
    socket.write(request);
  });
}

function dechunk(body: string): string {
  let out = "";
  for (let at = 0; at < body.length;) {
    const lineEnd = body.indexOf("\r\n", at);
    const size = parseInt(body.slice(at, lineEnd), 16);
    if (!size) break;
    out += body.slice(lineEnd + 2, lineEnd + 2 + size);
    at = lineEnd + 2 + size + 2;
  }
  return out;
}

const request = (line: string, extra = "") => raw(`${line} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n${extra}\r\n`);

function expectEnvelope(answer: RawAnswer, status: number, code: string): void {
  expect(answer.status, answer.body.slice(0, 200)).toBe(status);
  const body = JSON.parse(answer.body) as { error: { code: string }; request_id: string };
  expect(body.error.code).toBe(code);
  expect(body.request_id).toMatch(/^req_[0-9a-z]{24}$/);
  expect(answer.headers["x-request-id"]).toBe(body.request_id);
}

test("malformed percent-encoding anywhere in a path is an enveloped 400", async () => {
  for (const path of ["/api/v1/%", "/api/v1/organizations/%ff/forms/x/records", "/%E0%A4%A"]) {
    expectEnvelope(await request(`GET ${path}`), 400, "bad_request");
  }
});

test("TRACE, OPTIONS *, PROPFIND, SEARCH and unknown methods are enveloped 405s with Allow", async () => {
  for (const line of ["TRACE /api/v1/organizations", "OPTIONS *", "PROPFIND /", "SEARCH /api/v1/health", "FOO /"]) {
    const answer = await request(line);
    expectEnvelope(answer, 405, "method_not_allowed");
    expect(answer.headers.allow).toContain("GET");
  }
});

test("a request carrying Upgrade gets a real answer", async () => {
  for (const extra of [
    "Upgrade: h2c\r\nHTTP2-Settings: AAMAAABkAARAAAAAAAIAAAAA\r\n",
    "Upgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n",
  ]) {
    const answer = await raw(`GET /api/v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: Upgrade, close\r\n${extra}\r\n`);
    expect(answer.status).toBe(200);
    expect((JSON.parse(answer.body) as { data: { status: string } }).data.status).toBe("ok");
  }
});

test("GET /api/v1 and /api/v1/ are enveloped 404s; /docs/assets/constructor is a 404", async () => {
  expectEnvelope(await request("GET /api/v1"), 404, "not_found");
  expectEnvelope(await request("GET /api/v1/"), 404, "not_found");
  expect((await request("GET /docs/assets/constructor")).status).toBe(404);
  expect((await request("GET /docs/assets/__proto__")).status).toBe(404);
});

test("requests Node's parser rejects are answered in the envelope", async () => {
  expectEnvelope(await request("GET /", `X-Big: ${"a".repeat(20_000)}\r\n`), 431, "headers_too_large");
  expectEnvelope(await request("GET /", "X-Bad: a\u0001b\r\n"), 400, "bad_request");
  expectEnvelope(await raw("POST /api/v1/organizations HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab"), 400, "bad_request");
  expectEnvelope(await request("GET /", "Expect: teapot\r\n"), 417, "expectation_failed");
});

test("every response carries nosniff, a framing policy and a referrer policy: API, dashboard and docs", async () => {
  for (const path of ["/api/v1/health", "/api/v1/organizations", "/", "/docs", "/api/v1/nope"]) {
    const answer = await request(`GET ${path}`);
    expect(answer.headers["x-content-type-options"], path).toBe("nosniff");
    expect(answer.headers["x-frame-options"], path).toBe("DENY");
    expect(answer.headers["content-security-policy"], path).toContain("frame-ancestors 'none'");
    expect(answer.headers["referrer-policy"], path).toBe("strict-origin-when-cross-origin");
  }
});

test("two Authorization headers are a 400; the Bearer scheme is case-insensitive", async () => {
  const two = await request("GET /api/v1/organizations", "Authorization: Bearer a\r\nAuthorization: Bearer b\r\n");
  expectEnvelope(two, 400, "bad_request");
  const lower = await request("GET /api/v1/organizations", "Authorization:   bearer   gw_live_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA  \r\n");
  expectEnvelope(lower, 401, "unauthorized");
  expect(JSON.parse(lower.body).error.message).toContain("Unknown API key");
});

test("a missing, doubled or malformed Host is an enveloped 400 with a request id", async () => {
  expectEnvelope(await raw("GET /api/v1/health HTTP/1.1\r\nConnection: close\r\n\r\n"), 400, "bad_request");
  expectEnvelope(await raw("GET /dashboard HTTP/1.0\r\n\r\n"), 400, "bad_request");
  expectEnvelope(await raw("GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\nConnection: close\r\n\r\n"), 400, "bad_request");
  for (const host of ["exa mple.com", "x:port", "x:99999", "[::1", "a/b", "a@b", "-x", "é.test", "x..y"]) {
    for (const path of ["/", "/dashboard", "/api/v1/health", "/api/trpc/viewer.me", "/api/auth/session"]) {
      expectEnvelope(await raw(`GET ${path} HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`), 400, "bad_request");
    }
  }
});

test("percent-encoded unreserved characters name the same resource", async () => {
  const health = await request("GET /api/v1/he%61lth");
  expect(health.status).toBe(200);
  expect((JSON.parse(health.body) as { data: { status: string } }).data.status).toBe("ok");
  expect((await request("GET /docs/device%2Dsync")).status).toBe(200);
  expect((await request("GET /sign%2Din")).status).toBe(200);
  expectEnvelope(await request("GET /docs/assets/%2E%2E/%2E%2E/package.json"), 400, "bad_request");
});

test("the sign-in callback and /api/trpc refuse an oversized or unmeasured body before reading it", async () => {
  const post = (path: string, headers: string) => raw(`POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n${headers}\r\n`);
  expectEnvelope(
    await post("/api/auth/callback/credentials", "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 104857600\r\n"),
    413,
    "payload_too_large",
  );
  expectEnvelope(await post("/api/trpc/organizations.create", "Content-Type: application/json\r\nContent-Length: 104857600\r\n"), 413, "payload_too_large");
  expectEnvelope(await post("/api/trpc/organizations.create", "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n"), 411, "length_required");
  // A signed-out mutation is refused before its (small) body is read.
  const signedOut = await raw(
    `POST /api/trpc/organizations.create HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nOrigin: http://127.0.0.1:${port}\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}`,
  );
  expect(signedOut.status).toBe(401);
});

test("pages carry a nonce script policy that loads nothing from elsewhere", async () => {
  for (const path of ["/", "/docs", "/sign-in", "/dashboard"]) {
    const policy = (await request(`GET ${path}`)).headers["content-security-policy"] ?? "";
    expect(policy, path).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+'/);
    expect(policy, path).not.toMatch(/https?:|\*|unsafe-eval|script-src[^;]*unsafe-inline/);
    expect(policy, path).toContain("default-src 'self'");
  }
  const page = await request("GET /sign-in");
  const nonce = /'nonce-([^']+)'/.exec(page.headers["content-security-policy"] ?? "")![1]!;
  // Every inline script Next writes carries this response's nonce.
  const scripts = [...page.body.matchAll(/<script(?![^>]*\bsrc=)([^>]*)>/g)].map((m) => m[1]!);
  expect(scripts.length).toBeGreaterThan(0);
  for (const attributes of scripts) expect(attributes).toContain(`nonce="${nonce}"`);
});

// Issue 41 item 3 (D370): against the real server, Next behind the custom node server.
test("a stranger's 1 500-call tRPC batch is a small enveloped 400; a lone call without a session a small 401", async () => {
  const batch = await request(`GET /api/trpc/${Array<string>(1500).fill("viewer.me").join(",")}?batch=1`);
  expectEnvelope(batch, 400, "bad_request");
  expect(batch.body.length).toBeLessThan(600);
  const lone = await request("GET /api/trpc/viewer.me");
  expect(lone.status).toBe(401);
  expect(lone.body.length).toBeLessThan(600);
  expect(lone.body).toContain('"request_id":"req_');
});

// Issue 41 item 8 (D378): 127.0.0.1 is no trusted proxy here, so its X-Forwarded-Host is dropped.
test("a forged X-Forwarded-Host cannot make a cross-site POST look same-origin", async () => {
  const body = "{}";
  const answer = await raw(
    `POST /api/trpc/viewer.signOutEverywhere HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\nOrigin: http://evil.example\r\nX-Forwarded-Host: evil.example\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
  );
  expect(answer.status, answer.body.slice(0, 200)).toBe(403);
  expect(answer.body).toContain("Cross-site request refused.");
});
