import { mkdir, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { createDatabase, databaseUrl, dropDatabase, randomDatabaseName } from "@/server/db/admin";
import { prepareDatabase } from "@/server/db/bootstrap";
import { createPrismaClient } from "@/server/db/client";
import { applyMigrations } from "@/server/db/migrations";
import { runCsvUploadBench } from "./csv-upload";
import { runHostileBodiesBench } from "./hostile-bodies";
import { runDeleteBench } from "./delete-bench";
import { hookCostMicros, writerAtRate } from "./request-log-bench";
import { runRequestLogBrowseBench } from "./request-log-browse";
import { npmStartNodeFlags } from "../scripts/start-flags.mjs";
import { runRecordsExportBench } from "./records-export";
import { runRowsBench } from "./rows-bench";
import { checkpoint } from "./rows-pass";
import { runSharingBench } from "./sharing-bench";
import { seed } from "./seed";
import { runSyncBench } from "./sync-bench";
import { runCrmSyncBench } from "./crm-sync-bench";
import { runMigrationLocksBench } from "./migration-locks";
import { Table } from "./table";
import { runBackupBench } from "./backup-bench";

/**
 * `npm run bench`: the rows endpoint against a bare node:http + pg baseline, and the sync engine
 * against COPY, side by side on one Postgres (DATABASE_URL's server, else an embedded one under
 * .data/bench-postgres). Prints one table and writes it to bench/results/latest.md
 * (latest-<part>.md for a BENCH_ONLY run, not checked in).
 *   BENCH_ROWS      rows in the source and the customer table (default 1 000 000)
 *   BENCH_SECONDS   seconds per load step (default 5)
 *   BENCH_APP       next (default: the production server, src/server/process/start-server.ts) | handler (the same
 *                   /api/v1 handler over node:http, src/test/serve-api.ts: no Next build needed)
 *   BENCH_WALK_MAX  seconds the two walks taken in step (app and baseline, D336) may take together
 *                   before they are stopped and extrapolated (default 300); the rows part walks
 *                   twice so: before and after a 10 % pass
 *   BENCH_CRM_ROWS  records in the CRM object of the CRM sync part (default: BENCH_ROWS, at most 200 000)
 *   BENCH_ONLY      rows | sync | crm | delete | sharing | hostile | csv | export | requestlog | requestlog-browse | backup | migrations: run one part (while working on it);
 *                   requestlog-browse: the request log browser's pages over BENCH_LOG_ROWS (10 000 000)
 *                   entries filled with generate_series, each filter shape's p50 (issue 43);
 *                   backup: `backup create` of the seeded app database and a restore into PostgreSQL 15 (issue 42);
 *                   migrations: a writer's longest stall while each of the last three migrations is
 *                   applied over 1 M rows (bench/migration-locks.ts, issue 42);
 *                   sharing: API latency on `npm start` while its worker process runs a first pass (issue 27);
 *                   requestlog: the request log writer alone at BENCH_LOG_RATE (2000/s) for
 *                   BENCH_LOG_SECONDS (30), no seeding (the rows part also runs it, with the app)
 * Then, on their own databases, the hostile-bodies check of issue 10 (bench/hostile-bodies.ts),
 * /health during a 20 MB CSV upload (bench/csv-upload.ts), the records export's peak memory
 * (bench/records-export.ts) and the migrations' lock figure (bench/migration-locks.ts).
 */
const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);
const STEP_SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const APP = process.env.BENCH_APP === "handler" ? "handler" : "next";
const WALK_MAX = Number(process.env.BENCH_WALK_MAX ?? 300);
const ONLY = process.env.BENCH_ONLY;
/** Entries in the request log of the browser's part (issue 43). */
const LOG_ROWS = Number(process.env.BENCH_LOG_ROWS ?? 10_000_000);
/** The CRM stand-in holds its records in this process's memory: bounded whatever BENCH_ROWS is. */
const CRM_ROWS = Number(process.env.BENCH_CRM_ROWS ?? Math.min(ROWS, 200_000));

async function main(): Promise<void> {
  const started = performance.now();
  const log = (line: string) => process.stdout.write(`${line}\n`);
  if (ONLY === "hostile") {
    await runHostileBodiesBench(log);
    return;
  }
  if (ONLY === "export") {
    await runRecordsExportBench(log);
    return;
  }
  if (ONLY === "csv") {
    await runCsvUploadBench(log);
    return;
  }
  if (ONLY === "migrations") {
    await runMigrationLocksBench(log);
    return;
  }
  const server = await prepareDatabase({ dataDir: path.resolve(".data/bench-postgres"), log: () => undefined });
  const adminUrl = databaseUrl(server.url, "postgres");
  const appName = randomDatabaseName("gw_bench_app");
  const customerName = randomDatabaseName("gw_bench_customer");
  await createDatabase(adminUrl, appName);
  await createDatabase(adminUrl, customerName);
  const appUrl = databaseUrl(adminUrl, appName);
  const customerUrl = databaseUrl(adminUrl, customerName);
  const db = createPrismaClient(appUrl);
  const table = new Table();
  try {
    await applyMigrations(appUrl, { migrationsDir: path.resolve("prisma/migrations") });
    if (ONLY === "requestlog") {
      const rate = Number(process.env.BENCH_LOG_RATE ?? 2_000);
      const seconds = Number(process.env.BENCH_LOG_SECONDS ?? 30);
      const alone = await writerAtRate(appUrl, rate, seconds);
      log(`request log hook on the request path: ${(await hookCostMicros()).toFixed(2)} µs per request`);
      log(
        `request log writer alone at ${rate}/s for ${seconds} s: recorded ${alone.recorded}, written ${alone.written}, dropped ${alone.dropped}, buffer peak ${alone.maxBuffered}, ${alone.lagSeconds.toFixed(2)} s to drain`,
      );
      return;
    }
    if (ONLY === "requestlog-browse") {
      await runRequestLogBrowseBench({ appUrl, rows: LOG_ROWS, table, log });
      log(`\n${table.markdown()}`);
      return;
    }
    log(`seeding ${ROWS} rows...`);
    const fixture = await seed(db, appUrl, customerUrl, ROWS);
    await db.$disconnect();
    await checkpoint(appUrl, log);
    log(`seeded in ${((performance.now() - started) / 1000).toFixed(0)} s`);
    // First: the archive then holds the seeded database as seeded (the rows part adds nothing to it).
    if (!ONLY || ONLY === "backup") await runBackupBench({ appUrl, rows: ROWS, table, log });
    if (!ONLY || ONLY === "rows") await runRowsBench({ appUrl, fixture, rows: ROWS, stepSeconds: STEP_SECONDS, app: APP, walkMax: WALK_MAX, table, log });
    if (!ONLY || ONLY === "sync") await runSyncBench({ appUrl, customerUrl, fixture, rows: ROWS, table, log });
    if (!ONLY || ONLY === "sync" || ONLY === "crm") await runCrmSyncBench({ appUrl, fixture, rows: CRM_ROWS, table, log });
    // After the sync benchmark, which leaves its source holding every row: that source is deleted.
    if (!ONLY || ONLY === "delete") await runDeleteBench({ appUrl, fixture, rows: ROWS, table, log });
    // Last: it takes every other source off the schedule, and runs a first pass of its own.
    if (!ONLY || ONLY === "sharing") await runSharingBench({ appUrl, customerUrl, fixture, rows: ROWS, stepSeconds: STEP_SECONDS, table, log });
    // Last on this database: it fills the request log with BENCH_LOG_ROWS entries.
    if (!ONLY) await runRequestLogBrowseBench({ appUrl, rows: LOG_ROWS, table, log });
  } finally {
    await db.$disconnect().catch(() => undefined);
    await dropDatabase(adminUrl, appName).catch(() => undefined);
    await dropDatabase(adminUrl, customerName).catch(() => undefined);
    await server.stop();
  }
  const minutes = (performance.now() - started) / 60_000;
  const header = [
    `# npm run bench — ${new Date().toISOString()}`,
    "",
    `${ROWS.toLocaleString("en")} rows; ${os.cpus().length} cores, Node ${process.version}; app under test: ${
      APP === "next"
        ? `the production server (\`npm start\`: node ${[...npmStartNodeFlags(), "scripts/start.mjs"].join(" ")} → src/server/process/start-server.ts, Next through the custom server)`
        : "the /api/v1 handler over node:http (src/test/serve-api.ts)"
    }; baseline: bench/baseline-server.ts; one Postgres for both; run took ${minutes.toFixed(1)} min.`,
    "",
  ];
  const text = [...header, table.markdown(), ""].join("\n");
  log(`\n${text}`);
  await mkdir(path.resolve("bench/results"), { recursive: true });
  // A partial run (BENCH_ONLY) never replaces the last full one, which is checked in.
  await writeFile(path.resolve(`bench/results/${ONLY ? `latest-${ONLY}` : "latest"}.md`), text);
  if (!ONLY) await runHostileBodiesBench(log);
  if (!ONLY) await runCsvUploadBench(log);
  if (!ONLY) await runRecordsExportBench(log);
  if (!ONLY) await runMigrationLocksBench(log);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`benchmark failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
