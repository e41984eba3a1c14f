import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { answerDeleted } from "./fake-crm-deleted";
import { fieldType, nextObject, stampOf, type ObjectOptions, type SObject } from "./fake-crm-objects";

export type { ObjectOptions } from "./fake-crm-objects";

/**
 * A local stand-in for the Salesforce REST API, faithful to the parts the connector uses:
 * OAuth2 client-credentials token (400 invalid_client on bad credentials), sObject describe,
 * SOQL `query` with `nextRecordsUrl` paging and the `Sforce-Query-Options: batchSize` header,
 * 401 INVALID_SESSION_ID for unknown or expired tokens, Salesforce's error bodies. Faults
 * (5xx, hangs) are injected per endpoint.
 *
 * For change capture it keeps what Salesforce keeps: a stamp field (SystemModstamp by default)
 * that moves when a record changes, a SOQL `WHERE <stamp> >= <dateTime>` filter, and the delete
 * log behind "sObject Get Deleted" (fake-crm-deleted.ts), all on the CRM's own clock, which a
 * test may set apart from this host's (`clockOffsetMs`).
 */
export type Endpoint = "token" | "describe" | "query" | "page" | "deleted";
export type Fault = { status: number; body?: unknown } | { hangMs: number };

export interface FakeCrm {
  readonly url: string;
  readonly clientId: string;
  readonly clientSecret: string;
  /** Every request as `METHOD /path` (query strings dropped). */
  readonly requests: string[];
  /**
   * Makes the object hold exactly these records, as users editing the CRM would: a record new
   * or changed since the last call gets the CRM's current time as its stamp (unless it carries
   * one), a record that is gone is written to the delete log.
   */
  setRecords(object: string, fields: string[], records: Record<string, unknown>[], options?: ObjectOptions): void;
  /** Purges the object's delete log up to now (an administrator emptying the recycle bin). */
  purgeDeleteLog(object: string): void;
  /** Runs `action` once, when the endpoint is next called, before it answers. */
  during(endpoint: Endpoint, action: () => void): void;
  /** The CRM's clock runs this far ahead of this host's (negative: behind). */
  clockOffsetMs: number;
  /** The most ids one deleted-records answer may hold (Salesforce: 600 000, EXCEEDED_ID_LIMIT). */
  deletedIdLimit: number;
  /** The CRM's current time. */
  now(): Date;
  /** The next `times` requests to the endpoint get this fault instead of an answer. */
  fail(endpoint: Endpoint, fault: Fault, times?: number): void;
  /** Invalidates every issued token (a session timeout). */
  expireSessions(): void;
  /** Makes nextRecordsUrl point at another origin (the connector must not follow). */
  nextRecordsOrigin: string | null;
  close(): Promise<void>;
}

const API = /^\/services\/data\/(v\d+\.\d+)/;

export async function startFakeCrm(): Promise<FakeCrm> {
  const objects = new Map<string, SObject>();
  const tokens = new Set<string>();
  const cursors = new Map<string, { object: string; fields: string[]; records: Record<string, unknown>[]; pageSize: number }>();
  const faults = new Map<Endpoint, { fault: Fault; times: number }>();
  const requests: string[] = [];
  const hooks = new Map<Endpoint, () => void>();
  const hanging = new Set<ServerResponse>();

  const server = createServer((req, res) => {
    void handle(req, res).catch((error: unknown) => send(res, 500, [{ errorCode: "UNKNOWN_EXCEPTION", message: String(error) }]));
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", "http://fake");
    requests.push(`${req.method} ${url.pathname}`);
    // Salesforce's answers carry its own clock; the connector takes its marks from it.
    res.setHeader("date", crm.now().toUTCString());
    const endpoint = endpointOf(req.method ?? "GET", url.pathname);
    const hook = endpoint ? hooks.get(endpoint) : undefined;
    if (hook) {
      hooks.delete(endpoint!);
      hook();
    }
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
      return send(res, 200, {
        name,
        replicateable: object.replicateable,
        fields: object.fields.map((field) => ({ name: field, type: fieldType(field, object) })),
      });
    }
    if (endpoint === "deleted") {
      const name = /\/sobjects\/([^/]+)\/deleted\/?$/.exec(url.pathname)?.[1] ?? "";
      const object = objects.get(name);
      if (!object) return send(res, 404, [{ errorCode: "NOT_FOUND", message: "The requested resource does not exist" }]);
      if (!object.replicateable) return send(res, 400, [{ errorCode: "INVALID_TYPE", message: `sObject type '${name}' is not replicateable` }]);
      const answer = answerDeleted(object.deleteLog, url.searchParams, crm.now(), crm.deletedIdLimit);
      return send(res, answer.status, answer.body);
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
    if (form.get("grant_type") !== "client_credentials")
      return send(res, 400, { error: "unsupported_grant_type", error_description: "grant type not supported" });
    if (form.get("client_id") !== crm.clientId || form.get("client_secret") !== crm.clientSecret) {
      return send(res, 400, { error: "invalid_client", error_description: "invalid client credentials" });
    }
    const accessToken = `00D${randomBytes(24).toString("hex")}`;
    tokens.add(accessToken);
    send(res, 200, {
      access_token: accessToken,
      instance_url: crm.url,
      id: `${crm.url}/id/00D/005`,
      token_type: "Bearer",
      issued_at: String(Date.now()),
      signature: "x",
    });
  }

  function query(soql: string, pageSize: number, version: string, res: ServerResponse): void {
    const match = /^SELECT\s+(.+?)\s+FROM\s+(\w+)(?:\s+WHERE\s+(\w+)\s*>=\s*(\S+))?(?:\s+ORDER BY\s+Id)?$/i.exec(soql.trim());
    if (!match) return send(res, 400, [{ errorCode: "MALFORMED_QUERY", message: `unexpected SOQL: ${soql}` }]);
    const fields = match[1]!.split(",").map((field) => field.trim());
    const object = objects.get(match[2]!);
    if (!object) return send(res, 400, [{ errorCode: "INVALID_TYPE", message: `sObject type '${match[2]}' is not supported.` }]);
    const unknown = [...fields, ...(match[3] ? [match[3]] : [])].find((field) => !object.fields.includes(field));
    if (unknown) return send(res, 400, [{ errorCode: "INVALID_FIELD", message: `No such column '${unknown}' on entity '${match[2]}'.` }]);
    // SOQL dateTime literals are unquoted: 2024-05-01T10:00:00Z.
    const since = match[4] ? (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?Z$/.test(match[4]) ? new Date(match[4]) : null) : undefined;
    if (since === null)
      return send(res, 400, [{ errorCode: "MALFORMED_QUERY", message: `value of filter criterion for field '${match[3]}' must be of type dateTime` }]);
    if (match[3] && fieldType(match[3], object) !== "datetime")
      return send(res, 400, [{ errorCode: "INVALID_FIELD", message: `'${match[3]}' is not a dateTime field` }]);
    // A query locator is a snapshot of the result, as Salesforce keeps it server-side.
    const records = object.records
      .filter((record) => since === undefined || stampOf(record, object) >= since.getTime())
      .sort((a, b) => String(a.Id).localeCompare(String(b.Id)));
    const locator = `01g${randomBytes(6).toString("hex")}`;
    const cursor = { object: match[2]!, fields, records, pageSize };
    cursors.set(locator, cursor);
    sendPage(res, locator, cursor, 0, version);
  }

  function sendPage(
    res: ServerResponse,
    locator: string,
    cursor: { object: string; fields: string[]; records: Record<string, unknown>[]; pageSize: number },
    offset: number,
    version: string,
  ): void {
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
    clockOffsetMs: 0,
    deletedIdLimit: 600_000,
    now: () => new Date(Date.now() + crm.clockOffsetMs),
    setRecords(name, fields, records, options = {}) {
      objects.set(name, nextObject(objects.get(name), fields, records, options, crm.now()));
    },
    purgeDeleteLog(name) {
      const log = objects.get(name)?.deleteLog;
      if (log) log.purgedThrough = crm.now().getTime();
    },
    during(endpoint, action) {
      hooks.set(endpoint, action);
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
  if (/\/sobjects\/[^/]+\/deleted\/?$/.test(path)) return "deleted";
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
