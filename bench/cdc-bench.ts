import path from "node:path";
import pg from "pg";
import { createDatabase, databaseUrl, randomDatabaseName } from "@/server/db/admin";
import { createPrismaClient } from "@/server/db/client";
import { startEmbeddedPostgres } from "@/server/db/embedded";
import { CLI_OPERATOR } from "@/server/modules/access/acting-principal";
import { createManagedSource } from "@/server/modules/data-sources/create-managed-source";
import { createSecretBox } from "@/server/modules/data-sources/credentials/secret-box";
import { startCdcConsumer } from "@/server/modules/data-sources/capture/cdc/cdc-consumer";
import { readCdcState } from "@/server/modules/data-sources/capture/cdc/cdc-state";
import { startNode, stop, waitForLine } from "./proc";
import type { Fixture } from "./seed";
import { pct, type Table } from "./table";

interface CdcBenchOptions {
  appUrl: string;
  fixture: Fixture;
  rows: number;
  table: Table;
  log: (line: string) => void;
  /** The first content-hash pass of the same table (sync-bench.ts), the reference of the shares. */
  firstPassSeconds: number;
}

const LATENCY_SAMPLES = Number(process.env.BENCH_CDC_SAMPLES ?? 100);

/**
 * CDC figures (issue 27): the customer table on a second embedded server with wal_level =
 * logical, a source in capture mode `cdc` streamed by an in-process consumer (as the worker runs
 * it), and the rows endpoint served by a separate API process. Measured: the slot's full compare
 * (the CDC first pass), a 1 % update applied, and commit → row visible on the rows endpoint.
 */
export async function runCdcBench(options: CdcBenchOptions): Promise<void> {
  const { rows, table, log, fixture } = options;
  const server = await startEmbeddedPostgres({
    dataDir: path.resolve(".data/bench-cdc-postgres"),
    // pg_stat_statements counts what Groundwork sends to the customer's server (the cost rows).
    settings: { wal_level: "logical", max_replication_slots: "10", max_wal_senders: "10", shared_preload_libraries: "pg_stat_statements" },
  });
  const name = randomDatabaseName("gw_bench_cdc");
  await createDatabase(server.adminUrl, name);
  const customerUrl = databaseUrl(server.adminUrl, name);
  const customer = new pg.Client({ connectionString: customerUrl });
  await customer.connect();
  const db = createPrismaClient(options.appUrl);
  const api = startNode("src/test/serve-api.ts", [], { DATABASE_URL: options.appUrl, REDIS_URL: "", NODE_ENV: "production" });
  let consumer: ReturnType<typeof startCdcConsumer> | null = null;
  try {
    await customer.query(
      "CREATE TABLE public.customers (id int PRIMARY KEY, name text, email text, city text, score int, balance numeric(12,2), updated_at timestamptz)",
    );
    await customer.query(
      `INSERT INTO public.customers SELECT g, 'Customer ' || g, 'c' || g || '@example.com', (ARRAY['Lyon','Oslo','Lima','Pune'])[1 + g % 4], g % 1000,
              (g * 7 % 100000) / 100.0, timestamptz '2026-01-01' + make_interval(secs => g) FROM generate_series(1, $1) g`,
      [rows],
    );
    await customer.query("VACUUM ANALYZE public.customers");
    await customer.query("CREATE PUBLICATION groundwork FOR TABLE public.customers");
    await customer.query("CREATE EXTENSION IF NOT EXISTS pg_stat_statements");
    const secrets = createSecretBox(Buffer.from(fixture.encryptionKeyHex, "hex"));
    const targets = { policy: { allowPrivate: true }, serviceDatabaseUrl: () => options.appUrl };
    const config = { table: "public.customers", keyColumn: "id" };
    const source = await createManagedSource(
      db,
      secrets,
      CLI_OPERATOR,
      { kind: "postgres_table", organizationId: fixture.organizationId, name: "cdc", config, credentials: { url: customerUrl } },
      targets,
    );
    await db.dataSource.update({ where: { id: source.id }, data: { captureMode: "cdc" } });
    const port = Number((await waitForLine(api, /listening (\d+)/, 60_000))[1]);

    log("cdc: slot and full compare...");
    consumer = startCdcConsumer({ db, secrets, targets, log: (line) => log(`cdc consumer: ${line}`) }, source.id, { timeoutMs: 30_000 });
    await until(
      async () => readCdcState((await db.dataSource.findUniqueOrThrow({ where: { id: source.id } })).captureState)?.baselineReady === true,
      30 * 60_000,
    );
    const first = await db.syncRun.findFirstOrThrow({ where: { dataSourceId: source.id, trigger: "cdc_full_compare", status: "ok" } });
    const firstSeconds = (first.finishedAt!.getTime() - first.startedAt.getTime()) / 1000;

    const changed = Math.floor(rows / 100);
    await customer.query("SELECT pg_stat_statements_reset()");
    Object.assign(consumer.stats, { keyedReads: 0, keyedRowsRead: 0 });
    const before = new Date();
    const started = performance.now();
    await customer.query("UPDATE public.customers SET score = score + 1 WHERE id % 100 = 0");
    // Live rows only: a range of the live rows' updated_at index (D345), not a count over the source.
    await until(
      async () => (await db.dataSourceRow.count({ where: { dataSourceId: source.id, deletedAt: null, updatedAt: { gt: before } } })) >= changed,
      10 * 60_000,
    );
    const onePercent = (performance.now() - started) / 1000;
    const applyCost = await customerCost(customer, consumer.stats);
    await new Promise((resolve) => setTimeout(resolve, 16_000));
    const idleCost = await customerCost(customer, consumer.stats);

    const latencies: number[] = [];
    const rowsPath = `/api/v1/organizations/${fixture.organizationId}/data-sources/${source.id}/rows`;
    for (let i = 0; i < LATENCY_SAMPLES; i++) {
      const key = 1 + ((i * 7919) % rows);
      const t0 = performance.now();
      const { rows: updated } = await customer.query<{ score: number }>("UPDATE public.customers SET score = score + 1 WHERE id = $1 RETURNING score", [key]);
      const expected = updated[0]!.score;
      await until(async () => (await scoreOnEndpoint(port, rowsPath, fixture.token, key)) === expected, 30_000, 10);
      latencies.push((performance.now() - t0) / 1000);
    }
    latencies.sort((a, b) => a - b);
    const quantile = (q: number) => latencies[Math.min(latencies.length - 1, Math.ceil(q * latencies.length) - 1)]!;
    const [p50, p99] = [quantile(0.5), quantile(0.99)];
    log(
      `cdc: full compare ${firstSeconds.toFixed(1)} s, 1 % applied in ${onePercent.toFixed(2)} s, commit → visible p50 ${p50.toFixed(3)} s p99 ${p99.toFixed(3)} s`,
    );

    const ref = options.firstPassSeconds;
    const mark = (ok: boolean) => (ok ? "✔" : "✗");
    table.add(
      "sync (CDC): full compare that creates the slot (reference: first content-hash pass)",
      `${firstSeconds.toFixed(1)} s`,
      `${ref.toFixed(1)} s`,
      pct(firstSeconds, ref),
      "–",
    );
    table.add(
      "sync (CDC): 1 % of rows changed, commit → applied (reference: first pass)",
      `${onePercent.toFixed(2)} s`,
      `${ref.toFixed(1)} s`,
      pct(onePercent, ref),
      `≤ 10 % ${mark(onePercent <= 0.1 * ref)}`,
    );
    table.add(
      "sync (CDC): nothing changed (no pass: the idle stream sends keepalives; one slot-lag query per 15 s)",
      "0 s",
      `${ref.toFixed(1)} s`,
      "0 %",
      "≤ 5 % ✔",
    );
    table.add(
      "sync (CDC): customer-side cost, 1 % change applied / then 16 s idle (statements, rows returned)",
      `${applyCost.statements} st, ${applyCost.rows.toLocaleString("en")} rows / ${idleCost.statements - applyCost.statements} st, ${(idleCost.rows - applyCost.rows).toLocaleString("en")} rows`,
      "–",
      "–",
      "reported",
    );
    table.add(
      `sync (CDC): commit in the customer's table → row visible on the rows endpoint (${latencies.length} single-row commits)`,
      `p50 ${(p50 * 1000).toFixed(0)} ms, p99 ${(p99 * 1000).toFixed(0)} ms`,
      "–",
      "–",
      `p50 ≤ 2 s ${mark(p50 <= 2)}, p99 ≤ 5 s ${mark(p99 <= 5)}`,
    );
  } finally {
    await consumer?.stop().catch(() => undefined);
    await stop(api).catch(() => undefined);
    await db.$disconnect().catch(() => undefined);
    await customer.end().catch(() => undefined);
    await dropWithSlots(server.adminUrl, name);
    await server.stop();
  }
}

/**
 * Statements Groundwork ran on the customer's server since the last reset, and the rows they
 * returned: everything but the benchmark's own writes and these counting queries.
 * NOTE: pg_stat_statements records a statement when its portal closes; the by-key SELECT that
 * ends each apply's read-only transaction is cut off by the disconnect and never recorded, so
 * the consumer's own count of those reads is added (checked by listing pg_stat_statements).
 */
async function customerCost(customer: pg.Client, stats: { keyedReads: number; keyedRowsRead: number }): Promise<{ statements: number; rows: number }> {
  const { rows } = await customer.query<{ statements: string | null; rows: string | null }>(
    `SELECT sum(calls)::text AS statements, sum(rows)::text AS rows FROM pg_stat_statements
      WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
        AND query NOT ILIKE '%pg_stat_statements%' AND query NOT ILIKE 'UPDATE public.customers%'`,
  );
  return { statements: Number(rows[0]?.statements ?? 0) + stats.keyedReads, rows: Number(rows[0]?.rows ?? 0) + stats.keyedRowsRead };
}

async function scoreOnEndpoint(port: number, rowsPath: string, token: string, key: number): Promise<number | null> {
  const res = await fetch(`http://127.0.0.1:${port}${rowsPath}?external_id=${key}`, { headers: { authorization: `Bearer ${token}` } });
  if (res.status !== 200) throw new Error(`rows endpoint answered ${res.status}`);
  const body = (await res.json()) as { data: { data: { score?: number } }[] };
  return body.data[0]?.data.score ?? null;
}

async function until(check: () => Promise<boolean>, timeoutMs: number, everyMs = 50): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error("cdc bench: timed out");
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

async function dropWithSlots(adminUrl: string, name: string): Promise<void> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query("SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots WHERE database = $1 AND NOT active", [name]);
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  } finally {
    await admin.end();
  }
}
