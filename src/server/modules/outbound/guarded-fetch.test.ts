import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { crmRequest } from "@/server/modules/data-sources/connectors/crm-object/crm-http";
import { guardedFetch } from "./guarded-fetch";

let port: number;
const seen: string[] = [];
const server = createServer((req, res) => {
  seen.push(`${req.method} ${req.url} host=${req.headers.host}`);
  if (req.url === "/redirect") {
    res.writeHead(302, { location: "http://203.0.113.1/elsewhere" }).end();
    return;
  }
  let body = "";
  req.on("data", (chunk: Buffer) => (body += chunk.toString()));
  req.on("end", () => res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ echoed: body })));
});
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const dns = (answers: Record<string, string[]>) => async (host: string) => answers[host] ?? [];

describe("fetch to a tenant's CRM host", () => {
  it("connects to the address the policy checked, keeping the host name (a name the system cannot resolve works)", async () => {
    const fetchImpl = guardedFetch({ allowPrivate: true, resolve: dns({ "crm.test": ["127.0.0.1"] }) });
    const result = await crmRequest(fetchImpl, "The CRM token endpoint", `http://crm.test:${port}/token`, { method: "POST", body: "a=1" }, 2_000);
    expect(result).toMatchObject({ ok: true, value: { status: 200, body: { echoed: "a=1" } } });
    expect(seen.at(-1)).toBe(`POST /token host=crm.test:${port}`);
  });

  it("refuses a host whose checked address is restricted, before any connection", async () => {
    const before = seen.length;
    const fetchImpl = guardedFetch({ allowPrivate: false, resolve: dns({ "crm.test": ["127.0.0.1"] }) });
    const result = await crmRequest(fetchImpl, "The CRM token endpoint", `http://crm.test:${port}/token`, { method: "POST", body: "a=1" }, 2_000);
    expect(result).toEqual({
      ok: false,
      reason: `The CRM token endpoint at crm.test:${port} was refused: the host crm.test (127.0.0.1) is a loopback address; the operator has not allowed private targets (GROUNDWORK_ALLOW_PRIVATE_TARGETS)`,
    });
    const literal = await crmRequest(fetchImpl, "q", `http://127.0.0.1:${port}/q`, {}, 2_000);
    expect(literal).toMatchObject({ ok: false, reason: expect.stringMatching(/was refused: the host 127\.0\.0\.1 is a loopback address/) });
    expect(seen.length).toBe(before);
  });

  it("does not follow redirects", async () => {
    const fetchImpl = guardedFetch({ allowPrivate: true });
    expect(await crmRequest(fetchImpl, "q", `http://127.0.0.1:${port}/redirect`, {}, 2_000)).toMatchObject({ ok: true, value: { status: 302, body: null } });
    expect(seen.filter((line) => line.includes("/elsewhere"))).toEqual([]);
  });
});
