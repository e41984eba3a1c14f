import pg from "pg";
import { createPrismaClient } from "@/server/db/client";
import { createSecretBox } from "@/server/modules/data-sources/credentials/secret-box";
import { runSyncPass } from "@/server/modules/data-sources/sync/run-sync-pass";
import { openSeededDatabases } from "./seeded-databases";

/**
 * `tsx bench/pass-phases.ts [rows]`: where a sync pass's time goes, statement by statement. Seeds
 * the bench's databases, runs the first pass, then a 1 %-changed and a nothing-changed pass in
 * xmin mode, each in this process, and prints every statement (any connection) that took over
 * 20 ms, with its share of the pass. A probe for issue 27's pass figures, not a benchmark.
 */
const rows = Number(process.argv[2] ?? 1_000_000);
// The bench's customer database is on loopback, which sources may not reach by default.
process.env.GROUNDWORK_ALLOW_PRIVATE_TARGETS ??= "on";
const seeded = await openSeededDatabases("gw_phases", rows);
const timings: Array<{ sql: string; ms: number }> = [];
const query = pg.Client.prototype.query as (...args: unknown[]) => unknown;
/** `PASS_PHASES_EXPLAIN=<statement prefix>`: the first statement so beginning is also EXPLAINed (ANALYZE, BUFFERS) in a savepoint rolled back. */
const explainPrefix = process.env.PASS_PHASES_EXPLAIN;
const explained = new Set<string>();
async function explainThenRun(client: pg.Client, text: string, values: unknown[]): Promise<unknown> {
  const run = (sql: string, params?: unknown[]) => query.call(client, sql, params) as Promise<pg.QueryResult>;
  await run("SAVEPOINT probe_explain");
  const plan = await run(`EXPLAIN (ANALYZE, BUFFERS) ${text}`, values);
  await run("ROLLBACK TO SAVEPOINT probe_explain");
  process.stdout.write(`\nEXPLAIN ${text.replace(/\s+/g, " ").slice(0, 90)}\n${plan.rows.map((row) => `  ${String(row["QUERY PLAN"])}`).join("\n")}\n`);
  return run(text, values);
}
pg.Client.prototype.query = function timed(this: pg.Client, ...args: unknown[]) {
  const sql = args[0];
  if (
    explainPrefix &&
    typeof sql === "string" &&
    Array.isArray(args[1]) &&
    args.length === 2 &&
    sql.trimStart().startsWith(explainPrefix) &&
    !explained.has(sql)
  ) {
    explained.add(sql);
    const started = performance.now();
    const result = explainThenRun(this, sql, args[1]);
    void result.then(
      () => timings.push({ sql: `(explained, run twice) ${sql}`, ms: performance.now() - started }),
      () => undefined,
    );
    return result;
  }
  const result = query.apply(this, args);
  const text = typeof args[0] === "string" ? args[0] : ((args[0] as { text?: string })?.text ?? "(stream)");
  if (result instanceof Promise) {
    const started = performance.now();
    result.then(
      () => timings.push({ sql: text, ms: performance.now() - started }),
      () => undefined,
    );
  }
  return result;
} as typeof pg.Client.prototype.query;

try {
  const db = createPrismaClient(seeded.appUrl);
  const secrets = createSecretBox(Buffer.from(seeded.fixture.encryptionKeyHex, "hex"));
  const source = seeded.fixture.syncSourceId;
  const pass = async (label: string) => {
    timings.length = 0;
    const started = performance.now();
    const outcome = await runSyncPass({ db, secrets }, source, { trigger: "probe" });
    const total = performance.now() - started;
    process.stdout.write(
      `\n${label}: ${outcome.status}${outcome.error ? ` (${outcome.error})` : ""} in ${(total / 1000).toFixed(2)} s ${JSON.stringify(outcome.counts)}\n`,
    );
    // Statements grouped by their first 110 characters: how many, and their total time.
    const groups = new Map<string, { n: number; ms: number }>();
    for (const t of timings) {
      const key = t.sql.replace(/\s+/g, " ").slice(0, 110);
      const group = groups.get(key) ?? { n: 0, ms: 0 };
      group.n++;
      group.ms += t.ms;
      groups.set(key, group);
    }
    for (const [sql, g] of [...groups].filter(([, g]) => g.ms > 20).sort((a, b) => b[1].ms - a[1].ms)) {
      process.stdout.write(`  ${g.ms.toFixed(0).padStart(6)} ms ×${String(g.n).padEnd(5)} ${sql}\n`);
    }
  };
  const customer = new pg.Client({ connectionString: seeded.customerUrl });
  await customer.connect();
  await pass("first pass");
  const app = new pg.Client({ connectionString: seeded.appUrl });
  await app.connect();
  const timeSql = async (label: string, sql: string) => {
    const started = performance.now();
    await app.query(sql, sql.includes("$1") ? [source] : []);
    process.stdout.write(`  ${label}: ${(performance.now() - started).toFixed(0)} ms\n`);
  };
  const baselines = async (when: string) => {
    process.stdout.write(`\nbaseline reads ${when}:\n`);
    await timeSql(
      "count live, count all, max order (one scan)",
      "SELECT count(*) FILTER (WHERE deleted_at IS NULL)::int, count(*)::int, max(display_order) FROM data_source_rows WHERE data_source_id = $1",
    );
    await timeSql("count live alone", "SELECT count(*)::int FROM data_source_rows WHERE data_source_id = $1 AND deleted_at IS NULL");
    await timeSql("any row (exists)", "SELECT EXISTS (SELECT 1 FROM data_source_rows WHERE data_source_id = $1)");
  };
  await baselines("after the first pass");
  await timeSql("VACUUM data_source_rows", "VACUUM data_source_rows");
  await baselines("after VACUUM");
  await db.$executeRawUnsafe(`UPDATE data_sources SET capture_mode = 'xmin' WHERE id = '${source}'`);
  await customer.query("UPDATE public.customers SET score = score + 1 WHERE id % 100 = 0");
  await pass("xmin, 1 % changed");
  await pass("xmin, nothing changed");
  await customer.query("UPDATE public.customers SET score = score + 1 WHERE id % 100 = 1");
  await pass("xmin, 1 % changed (again)");
  await pass("xmin, nothing changed (again)");
  await customer.end();
  await app.end();
  await db.$disconnect();
} finally {
  await seeded.close();
}
