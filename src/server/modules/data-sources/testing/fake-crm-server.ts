import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A local stand-in for the Salesforce REST API, faithful to the parts the connector uses:
 * OAuth2 client-credentials token (400 invalid_client on bad credentials), sObject describe,
 * SOQL `query` with `nextRecordsUrl` paging and the `Sforce-Query-Options: batchSize` header,
 * 401 INVALID_SESSION_ID for unknown or expired tokens, Salesforce's error bodies. Faults
 * (5xx, hangs) are injected per endpoint.
 */
export type Endpoint = "token" | "describe" | "query" | "page";
export type Fault = { status: number; body?: unknown } | { hangMs: number };

export interface FakeCrm {
  readonly url: string;
  readonly clientId: string;
  readonly clientSecret: string;
  /** Every request as `METHOD /path` (query strings dropped). */
  readonly requests: string[];
  setRecords(object: string, fields: string[], records: Record<string, unknown>[]): void;
  /** The next `times` requests to the endpoint get this fault instead of an answer. */
  fail(endpoint: Endpoint, fault: Fault, times?: number): void;
  /** Invalidates every issued token (a session timeout). */
  expireSessions(): void;
  /** Makes nextRecordsUrl point at another origin (the connector must not follow). */
  nextRecordsOrigin: string | null;
  close(): Promise<void>;
}

interface SObject {
  fields: string[];
  records: Record<string, unknown>[];
}

const API = /^\/services\/data\/(v\d+\.\d+)/;

export async function startFakeCrm(): Promise<FakeCrm> {
  const objects = new Map<string, SObject>();
  const tokens = new Set<string>();
  const cursors = new Map<string, { object: string; fields: string[]; records: Record<string, unknown>[]; pageSize: number }>();
  const faults = new Map<Endpoint, { fault: Fault; times: number }>();
  const requests: string[] = [];
  const hanging = new Set<ServerResponse>();

  const server = createServer((req, res) => {
    void handle(req, res).catch((error: unknown) => send(res, 500, [{ errorCode: "UNKNOWN_EXCEPTION", message: String(error) }]));
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", "http://fake");
    requests.push(`${req.method} ${url.pathname}`);
    const endpoint = endpointOf(req.method ?? "GET", url.pathname);
    if (endpoint && (await injectFault(endpoint, res))) return;

    if (endpoint === "token") return token(await readBody(req), res);
    if (!endpoint) return send(res, 404, [{ errorCode: "NOT_FOUND", message: "The requested resource does not exist" }]);
    const auth = /^Bearer (.+)$/.exec(req.headers.authorization ?? "");
    if (!auth?.[1] || !tokens.has(auth[1])) return send(res, 401, [{ message: "Session expired or invalid", errorCode: "INVALID_SESSION_ID" }]);

    const version = API.exec(url.pathname)?.[1] ?? "v60.0";
    if (endpoint === "describe") {
      const name = /\/sobjects\/([^/]+)\/describe$/.exec(url.pathname)?.[1] ?? "";
      const object = objects.get(name);
      if (!object) return send(res, 404, [{ errorCode: "NOT_FOUND", message: "The requested resource does not exist" }]);
      return send(res, 200, { name, fields: object.fields.map((field) => ({ name: field, type: field === "Id" ? "id" : "string" })) });
    }
    if (endpoint === "query") {
      const pageSize = Number(/batchSize=(\d+)/.exec(String(req.headers["sforce-query-options"] ?? ""))?.[1] ?? 2000);
      return query(url.searchParams.get("q") ?? "", Math.min(2000, Math.max(200, pageSize)), version, res);
    }
    const [, locator, offset] = /\/query\/([0-9A-Za-z]+)-(\d+)$/.exec(url.pathname) ?? [];
    const cursor = locator ? cursors.get(locator) : undefined;
    if (!cursor) return send(res, 400, [{ errorCode: "INVALID_QUERY_LOCATOR", message: "invalid query locator" }]);
    return sendPage(res, locator!, cursor, Number(offset), version);
  }

  function token(body: string, res: ServerResponse): void {
    const form = new URLSearchParams(body);
    if (form.get("grant_type") !== "client_credentials") return send(res, 400, { error: "unsupported_grant_type", error_description: "grant type not supported" });
    if (form.get("client_id") !== crm.clientId || form.get("client_secret") !== crm.clientSecret) {
      return send(res, 400, { error: "invalid_client", error_description: "invalid client credentials" });
    }
    const accessToken = `00D${randomBytes(24).toString("hex")}`;
    tokens.add(accessToken);
    send(res, 200, { access_token: accessToken, instance_url: crm.url, id: `${crm.url}/id/00D/005`, token_type: "Bearer", issued_at: String(Date.now()), signature: "x" });
  }

  function query(soql: string, pageSize: number, version: string, res: ServerResponse): void {
    const match = /^SELECT\s+(.+?)\s+FROM\s+(\w+)(?:\s+ORDER BY\s+Id)?$/i.exec(soql.trim());
    if (!match) return send(res, 400, [{ errorCode: "MALFORMED_QUERY", message: `unexpected SOQL: ${soql}` }]);
    const fields = match[1]!.split(",").map((field) => field.trim());
    const object = objects.get(match[2]!);
    if (!object) return send(res, 400, [{ errorCode: "INVALID_TYPE", message: `sObject type '${match[2]}' is not supported.` }]);
    const unknown = fields.find((field) => !object.fields.includes(field));
    if (unknown) return send(res, 400, [{ errorCode: "INVALID_FIELD", message: `No such column '${unknown}' on entity '${match[2]}'.` }]);
    // A query locator is a snapshot of the result, as Salesforce keeps it server-side.
    const records = [...object.records].sort((a, b) => String(a.Id).localeCompare(String(b.Id)));
    const locator = `01g${randomBytes(6).toString("hex")}`;
    const cursor = { object: match[2]!, fields, records, pageSize };
    cursors.set(locator, cursor);
    sendPage(res, locator, cursor, 0, version);
  }

  function sendPage(res: ServerResponse, locator: string, cursor: { object: string; fields: string[]; records: Record<string, unknown>[]; pageSize: number }, offset: number, version: string): void {
    const page = cursor.records.slice(offset, offset + cursor.pageSize);
    const nextOffset = offset + page.length;
    const done = nextOffset >= cursor.records.length;
    send(res, 200, {
      totalSize: cursor.records.length,
      done,
      ...(done ? {} : { nextRecordsUrl: `${crm.nextRecordsOrigin ?? ""}/services/data/${version}/query/${locator}-${nextOffset}` }),
      records: page.map((record) => ({
        attributes: { type: cursor.object, url: `/services/data/${version}/sobjects/${cursor.object}/${String(record.Id)}` },
        ...Object.fromEntries(cursor.fields.map((field) => [field, record[field] ?? null])),
      })),
    });
  }

  async function injectFault(endpoint: Endpoint, res: ServerResponse): Promise<boolean> {
    const pending = faults.get(endpoint);
    if (!pending || pending.times <= 0) return false;
    pending.times -= 1;
    if ("hangMs" in pending.fault) {
      hanging.add(res);
      await new Promise((resolve) => setTimeout(resolve, (pending.fault as { hangMs: number }).hangMs));
      hanging.delete(res);
      if (!res.destroyed) send(res, 200, { done: true, totalSize: 0, records: [] });
      return true;
    }
    send(res, pending.fault.status, pending.fault.body ?? [{ errorCode: "SERVER_UNAVAILABLE", message: "Service temporarily unavailable" }]);
    return true;
  }

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const crm: FakeCrm = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    clientId: "3MVG9_fake_client_id",
    clientSecret: `secret-${randomBytes(12).toString("hex")}`,
    requests,
    nextRecordsOrigin: null,
    setRecords(object, fields, records) {
      objects.set(object, { fields: ["Id", ...fields.filter((field) => field !== "Id")], records });
    },
    fail(endpoint, fault, times = 1) {
      faults.set(endpoint, { fault, times });
    },
    expireSessions() {
      tokens.clear();
    },
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return crm;
}

function endpointOf(method: string, path: string): Endpoint | null {
  if (method === "POST" && path === "/services/oauth2/token") return "token";
  if (method !== "GET" || !API.test(path)) return null;
  if (/\/sobjects\/[^/]+\/describe$/.test(path)) return "describe";
  if (/\/query$/.test(path)) return "query";
  if (/\/query\/[^/]+$/.test(path)) return "page";
  return null;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => (body += chunk));
    req.on("end", () => resolve(body));
    req.on("error", reject);
  });
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json;charset=UTF-8" });
  res.end(JSON.stringify(body));
}
