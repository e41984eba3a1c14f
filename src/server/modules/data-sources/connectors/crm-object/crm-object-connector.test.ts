import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Result } from "@/server/modules/outbound/result";
import { crmObjectConfigSchema } from "../../source-config";
import { startFakeCrm, type FakeCrm } from "../../testing/fake-crm-server";
import type { SourceRecord } from "../connector";
import { crmObjectConnector } from "./crm-object-connector";
import type { FetchLike } from "./crm-http";

let crm: FakeCrm;
beforeEach(async () => {
  crm = await startFakeCrm();
  crm.setRecords(
    "Account",
    ["Name", "Industry"],
    Array.from({ length: 450 }, (_, i) => ({ Id: `001${String(i).padStart(12, "0")}`, Name: `Account ${i}`, Industry: i % 2 ? "Energy" : null })),
  );
});
afterEach(() => crm.close());

/** The fake CRM listens on loopback over http: allowed only with private targets on. */
const LOCAL_TARGETS = { allowPrivate: true };

function connector(overrides: { fields?: string[] | null; clientSecret?: string; instanceUrl?: string } = {}) {
  const config = crmObjectConfigSchema.parse({ instanceUrl: overrides.instanceUrl ?? crm.url, object: "Account", fields: overrides.fields ?? null });
  return crmObjectConnector(config, { clientId: crm.clientId, clientSecret: overrides.clientSecret ?? crm.clientSecret }, LOCAL_TARGETS);
}

/** The whole read: the records, or the first failure. */
async function readAll(options: { batchSize?: number; timeoutMs?: number; fields?: string[] | null; clientSecret?: string; instanceUrl?: string } = {}) {
  const opened = await connector(options).fetchSnapshot({ batchSize: options.batchSize ?? 200, timeoutMs: options.timeoutMs ?? 2_000 });
  if (!opened.ok) return { failure: opened.reason, batches: [] as SourceRecord[][], columns: [] as string[] };
  const batches: SourceRecord[][] = [];
  let failure: string | null = null;
  for await (const batch of opened.value.batches() as AsyncIterable<Result<SourceRecord[]>>) {
    if (!batch.ok) failure = batch.reason;
    else batches.push(batch.value);
  }
  await opened.value.close();
  return { failure, batches, columns: opened.value.columns };
}

describe("the CRM object connector (Salesforce REST query protocol)", () => {
  it("takes a client-credentials token, then follows nextRecordsUrl page by page, one batch per page", async () => {
    const { failure, batches, columns } = await readAll({ batchSize: 200 });
    expect(failure).toBeNull();
    // Every field the object describes, its SystemModstamp included (as Salesforce describes it).
    expect(columns).toEqual(["Id", "Name", "Industry", "SystemModstamp"]);
    expect(batches.map((batch) => batch.length)).toEqual([200, 200, 50]);
    const first = batches[0]![0]!;
    expect(first).toEqual({
      externalId: "001000000000000",
      data: {
        Id: "001000000000000",
        Name: "Account 0",
        Industry: null,
        SystemModstamp: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}\+0000$/),
      },
      orderValue: null,
    });
    expect(crm.requests).toEqual([
      "POST /services/oauth2/token",
      "GET /services/data/v60.0/sobjects/Account/describe",
      "GET /services/data/v60.0/query",
      expect.stringMatching(/^GET \/services\/data\/v60.0\/query\/01g\w+-200$/),
      expect.stringMatching(/^GET \/services\/data\/v60.0\/query\/01g\w+-400$/),
    ]);
  });

  it("queries only the configured fields (Id always first) without a describe call", async () => {
    const { batches, columns } = await readAll({ fields: ["Name"], batchSize: 2000 });
    expect(columns).toEqual(["Id", "Name"]);
    expect(batches[0]![0]!.data).toEqual({ Id: "001000000000000", Name: "Account 0" });
    expect(crm.requests.some((request) => request.includes("describe"))).toBe(false);
  });

  it("bad client credentials: a readable failure that never echoes the secret", async () => {
    const { failure } = await readAll({ clientSecret: "wrong-secret-value" });
    expect(failure).toMatch(/token endpoint answered 400 \(invalid_client: invalid client credentials\).*check the client id and secret/);
    expect(failure).not.toContain("wrong-secret-value");
  });

  it("a 500 on a query page fails the read with the status and the CRM's error code", async () => {
    crm.fail("page", { status: 500 });
    const { failure, batches } = await readAll();
    expect(batches).toHaveLength(1);
    expect(failure).toBe("The CRM query on Account answered 500 (SERVER_UNAVAILABLE: Service temporarily unavailable)");
  });

  it("a read that ends before the query's totalSize is a failure, not a complete source (it would tombstone the rest)", async () => {
    crm.fail("page", { status: 200, body: { totalSize: 450, done: true, records: [] } });
    const { failure, batches } = await readAll();
    expect(batches.map((batch) => batch.length)).toEqual([200]);
    expect(failure).toBe("The CRM query on Account ended after 200 of the 450 records it announced; the read is incomplete");
  });

  it("a page that makes no progress but is not done fails instead of looping until the pass limit", async () => {
    crm.fail("page", { status: 200, body: { totalSize: 450, done: false, records: [], nextRecordsUrl: "/services/data/v60.0/query/01gX-200" } }, 50);
    const { failure, batches } = await readAll();
    expect(batches.map((batch) => batch.length)).toEqual([200]);
    expect(failure).toBe("The CRM query on Account returned a page that makes no progress (no records) but is not done");
  });

  it("a request that hangs times out", async () => {
    crm.fail("query", { hangMs: 5_000 });
    const started = Date.now();
    const { failure } = await readAll({ timeoutMs: 300 });
    expect(failure).toMatch(/The CRM query on Account at 127\.0\.0\.1:\d+ timed out after 300 ms/);
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  it("a session that expires mid-read is renewed once and the page is fetched again", async () => {
    const opened = await connector().fetchSnapshot({ batchSize: 200, timeoutMs: 2_000 });
    if (!opened.ok) throw new Error(opened.reason);
    const sizes: number[] = [];
    for await (const batch of opened.value.batches()) {
      if (!batch.ok) throw new Error(batch.reason);
      sizes.push(batch.value.length);
      if (sizes.length === 1) crm.expireSessions();
    }
    expect(sizes).toEqual([200, 200, 50]);
    expect(crm.requests.filter((request) => request.includes("oauth2/token"))).toHaveLength(2);
  });

  it("an unknown object or field is a readable failure", async () => {
    const unknownField = await readAll({ fields: ["Revenue__c"] });
    expect(unknownField.failure).toBe("The CRM query on Account answered 400 (INVALID_FIELD: No such column 'Revenue__c' on entity 'Account'.)");
    const config = crmObjectConfigSchema.parse({ instanceUrl: crm.url, object: "Opportunity" });
    const opened = await crmObjectConnector(config, { clientId: crm.clientId, clientSecret: crm.clientSecret }, LOCAL_TARGETS).fetchSnapshot({
      batchSize: 200,
      timeoutMs: 2_000,
    });
    expect(opened).toEqual({ ok: false, reason: "The CRM has no object named Opportunity" });
  });

  it("refuses to send the token to another host named by nextRecordsUrl", async () => {
    crm.nextRecordsOrigin = "http://evil.example";
    const { failure } = await readAll();
    expect(failure).toBe("The CRM pointed the next page to another host (evil.example); refusing to follow it");
    expect(crm.requests.filter((request) => request.includes("/query/"))).toHaveLength(0);
  });

  it("a CRM that is down is a readable failure", async () => {
    const url = crm.url;
    await crm.close();
    const { failure } = await readAll({ instanceUrl: url });
    expect(failure).toMatch(/^The CRM token endpoint at 127\.0\.0\.1:\d+ refused the connection$/);
    crm = await startFakeCrm(); // for afterEach
  });

  it("refuses an instance_url outside the configured instance's domain, and never calls it", async () => {
    const config = crmObjectConfigSchema.parse({ instanceUrl: crm.url, object: "Account", fields: ["Name"] });
    const called: string[] = [];
    const rewriting: FetchLike = async (url, init) => {
      called.push(new URL(url).host);
      const response = await fetch(url, init);
      if (!url.endsWith("/services/oauth2/token")) return response;
      return Response.json({ ...((await response.json()) as object), instance_url: "http://127.0.0.2:9" });
    };
    const opened = await crmObjectConnector(config, { clientId: crm.clientId, clientSecret: crm.clientSecret }, LOCAL_TARGETS, rewriting).fetchSnapshot({
      batchSize: 200,
      timeoutMs: 2_000,
    });
    expect(opened).toEqual({
      ok: false,
      reason: `The CRM token endpoint named an instance_url outside ${new URL(crm.url).host} (127.0.0.2:9); refusing to send the token there`,
    });
    expect(called).toEqual([new URL(crm.url).host]);
  });

  it("refuses plain http to the CRM unless private targets are allowed", async () => {
    const config = crmObjectConfigSchema.parse({ instanceUrl: crm.url, object: "Account" });
    const opened = await crmObjectConnector(config, { clientId: crm.clientId, clientSecret: crm.clientSecret }, { allowPrivate: false }).fetchSnapshot({
      batchSize: 200,
      timeoutMs: 2_000,
    });
    expect(opened).toMatchObject({ ok: false, reason: expect.stringMatching(/^The CRM instance URL was refused: the instance URL must use https/) });
    expect(crm.requests).toEqual([]);
  });
});
