import pg from "pg";
import { CLI_OPERATOR } from "@/server/modules/access/acting-principal";
import { createPrismaClient } from "@/server/db/client";
import { createManagedSource } from "@/server/modules/data-sources/create-managed-source";
import { createSecretBox } from "@/server/modules/data-sources/credentials/secret-box";
import { salesforceDate } from "@/server/modules/data-sources/testing/fake-crm-deleted";
import { startFakeCrm } from "@/server/modules/data-sources/testing/fake-crm-server";
import { runToEnd, startNode } from "./proc";
import type { Fixture } from "./seed";
import { pct, type Table } from "./table";

interface CrmBenchOptions {
  appUrl: string;
  fixture: Fixture;
  rows: number;
  table: Table;
  log: (line: string) => void;
}

interface PassFigures {
  seconds: number;
  requests: number;
  recordsRead: number;
  fullCompare: boolean;
  counts: { inserted: number; updated: number; tombstoned: number };
}

/**
 * A CRM object source against the local Salesforce stand-in the tests use (its query paging,
 * stamps and delete log), each pass in its own CLI process as the sync bench runs them: the first
 * pass, a pass with 1 % of the records changed and 0.1 % deleted, a nothing-changed pass (both
 * modified_since), and the daily safety-net full compare of the same unchanged object, with the
 * customer-side cost of each (HTTP requests, records read). The CRM is local, so times show our
 * side's cost; on a real CRM each request adds its round trip and the CRM's query time. The pass
 * that follows a change within the 10-minute overlap (D301) reads those records again; passes on
 * the default 15-minute schedule do not. A CLI pass has a fixed cost of its own (a fresh process's
 * first connections, about 2.5 s on the loaded 2-core machine with 20 000 records, 0.36 s for the
 * same pass in a warm process), which dominates small sources: compare requests and records read.
 */
export async function runCrmSyncBench(options: CrmBenchOptions): Promise<void> {
  const { rows, table, log } = options;
  const crm = await startFakeCrm();
  const db = createPrismaClient(options.appUrl);
  try {
    const old = salesforceDate(new Date(crm.now().getTime() - 3_600_000));
    const records = Array.from({ length: rows }, (_, i) => ({
      Id: `001${String(i).padStart(12, "0")}`,
      Name: `Account ${i}`,
      City: ["Lyon", "Oslo", "Lima", "Pune"][i % 4],
      Score: String(i % 1000),
      SystemModstamp: old,
    }));
    crm.setRecords("Account", ["Name", "City", "Score"], records);
    const secrets = createSecretBox(Buffer.from(options.fixture.encryptionKeyHex, "hex"));
    const source = await createManagedSource(
      db,
      secrets,
      CLI_OPERATOR,
      {
        kind: "crm_object",
        organizationId: options.fixture.organizationId,
        name: "crm",
        config: { instanceUrl: crm.url, object: "Account" },
        credentials: { clientId: crm.clientId, clientSecret: crm.clientSecret },
      },
      { policy: { allowPrivate: true }, serviceDatabaseUrl: () => options.appUrl },
    );
    const pass = () => crmPass(options, source.id);
    log(`crm: first pass of ${rows} records...`);
    const first = await pass();
    crm.setRecords(
      "Account",
      ["Name", "City", "Score"],
      records
        .filter((_, i) => i % 1000 !== 1)
        .map((record, i) => (i % 100 === 0 ? { Id: record.Id, Name: `Renamed ${i}`, City: record.City, Score: record.Score } : record)),
    );
    crm.clockOffsetMs += 60_000; // the delete log answers by the minute (D301)
    const changed = await pass();
    const nothing = await pass();
    await db.dataSource.update({ where: { id: source.id }, data: { lastFullCompareAt: new Date(Date.now() - 25 * 3_600_000) } });
    const safetyNet = await pass();
    if (first.fullCompare !== true || changed.fullCompare || nothing.fullCompare || !safetyNet.fullCompare)
      throw new Error("crm bench: passes ran in unexpected modes");
    if (changed.counts.updated === 0 || changed.counts.tombstoned === 0 || nothing.counts.updated !== 0)
      throw new Error(`crm bench: unexpected counts ${JSON.stringify(changed.counts)}`);
    const cost = (p: PassFigures) => `${p.seconds.toFixed(2)} s; ${p.requests} requests, ${p.recordsRead.toLocaleString("en")} records read`;
    log(`crm: first ${cost(first)} | 1 % ${cost(changed)} | nothing ${cost(nothing)} | safety net ${cost(safetyNet)}`);
    table.add(`crm (local stand-in): first pass of ${rows.toLocaleString("en")} records (full compare)`, cost(first), "–", "–");
    table.add(
      "crm modified_since: 1 % changed + 0.1 % deleted (reference: first pass)",
      cost(changed),
      `${first.seconds.toFixed(2)} s`,
      pct(changed.seconds, first.seconds),
      "reported",
    );
    table.add(
      "crm modified_since: nothing changed (reference: first pass)",
      cost(nothing),
      `${first.seconds.toFixed(2)} s`,
      pct(nothing.seconds, first.seconds),
      "reported",
    );
    table.add(
      "crm: daily safety-net full compare, nothing changed (reference: first pass)",
      cost(safetyNet),
      `${first.seconds.toFixed(2)} s`,
      pct(safetyNet.seconds, first.seconds),
      "reported",
    );
  } finally {
    await db.$disconnect();
    await crm.close();
  }
}

async function crmPass(options: CrmBenchOptions, sourceId: string): Promise<PassFigures> {
  const child = startNode("src/cli/main.ts", ["source", "sync", sourceId, "--json"], {
    DATABASE_URL: options.appUrl,
    GROUNDWORK_ENCRYPTION_KEY: options.fixture.encryptionKeyHex,
    GROUNDWORK_ALLOW_PRIVATE_TARGETS: "on",
  });
  const { code, output } = await runToEnd(child);
  if (code !== 0) throw new Error(`crm sync failed (${code}): ${output.slice(-2000)}`);
  const app = new pg.Client({ connectionString: options.appUrl });
  await app.connect();
  try {
    const { rows } = await app.query<{
      status: string;
      seconds: number;
      customer_statements: number;
      customer_rows_read: number;
      full_compare: boolean;
      inserted: number;
      updated: number;
      tombstoned: number;
    }>(
      `SELECT status, extract(epoch FROM finished_at - started_at)::float8 AS seconds, customer_statements, customer_rows_read, full_compare, inserted, updated, tombstoned
         FROM sync_runs WHERE data_source_id = $1 ORDER BY started_at DESC LIMIT 1`,
      [sourceId],
    );
    const run = rows[0];
    if (!run || run.status !== "ok") throw new Error(`unexpected crm sync run: ${JSON.stringify(run)}`);
    return { seconds: run.seconds, requests: run.customer_statements, recordsRead: run.customer_rows_read, fullCompare: run.full_compare, counts: run };
  } finally {
    await app.end();
  }
}
