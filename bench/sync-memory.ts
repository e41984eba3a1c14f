import { CLI_OPERATOR } from "@/server/modules/access/acting-principal";
import { randomBytes } from "node:crypto";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import pg from "pg";
import { createDatabase, databaseUrl, dropDatabase, randomDatabaseName } from "@/server/db/admin";
import { prepareDatabase } from "@/server/db/bootstrap";
import { createPrismaClient } from "@/server/db/client";
import { applyMigrations } from "@/server/db/migrations";
import type { PrismaClient } from "@/server/db/types";
import { createManagedSource } from "@/server/modules/data-sources/create-managed-source";
import { createSecretBox } from "@/server/modules/data-sources/credentials/secret-box";
import { runSyncPass } from "@/server/modules/data-sources/sync/run-sync-pass";
import { createOrganization } from "@/server/modules/organizations/create-organization";

/**
 * How much the process grows while a pass mirrors a large customer table, per batch size.
 * The claim under test (issue 7): memory is bounded by the batch, not by the table, so a
 * 200 000-row pass should grow about as much as a 50 000-row one at the same batch size.
 *
 * Run with `npm run bench` (or `node --expose-gc --import tsx bench/sync-memory.ts`); with gc
 * exposed the baseline is exact and "retained" shows what a pass leaves behind. "Peak" includes
 * garbage not yet collected, so it depends on V8's collection schedule as well as the batch. Uses DATABASE_URL's server, else an embedded one under
 * .data/bench-postgres; creates and drops its own databases.
 */
export interface SyncMemoryCase {
  rows: number;
  batchSize: number;
}

export interface SyncMemoryResult extends SyncMemoryCase {
  seconds: number;
  rowsPerSecond: number;
  peakRssGrowthMb: number;
  peakHeapGrowthMb: number;
  /** Heap still held after the pass and a full gc: anything here would be a leak. */
  retainedHeapMb: number;
}

export const DEFAULT_CASES: SyncMemoryCase[] = [
  { rows: 50_000, batchSize: 1000 },
  { rows: 200_000, batchSize: 500 },
  { rows: 200_000, batchSize: 1000 },
  { rows: 200_000, batchSize: 5000 },
];

export async function runSyncMemoryBench(options: { cases?: SyncMemoryCase[]; log?: (line: string) => void } = {}): Promise<SyncMemoryResult[]> {
  const log = options.log ?? ((line: string) => process.stdout.write(`${line}\n`));
  const cases = options.cases ?? DEFAULT_CASES;
  const server = await prepareDatabase({ dataDir: path.resolve(".data/bench-postgres"), log: () => undefined });
  const adminUrl = databaseUrl(server.url, "postgres");
  const appName = randomDatabaseName("gw_bench_app");
  const customerName = randomDatabaseName("gw_bench_customer");
  await createDatabase(adminUrl, appName);
  await createDatabase(adminUrl, customerName);
  const appUrl = databaseUrl(adminUrl, appName);
  const customerUrl = databaseUrl(adminUrl, customerName);
  const db = createPrismaClient(appUrl);
  const customer = new pg.Client({ connectionString: customerUrl });
  try {
    await applyMigrations(appUrl, { migrationsDir: path.resolve("prisma/migrations") });
    await customer.connect();
    if (!globalThis.gc) log("note: run with --expose-gc for exact heap baselines");
    log(`sync memory benchmark (Node ${process.version})`);
    log(`${"rows".padStart(8)} ${"batch".padStart(6)} ${"seconds".padStart(8)} ${"rows/s".padStart(8)} ${"peak RSS +MB".padStart(13)} ${"peak heap +MB".padStart(14)} ${"retained +MB".padStart(13)}`);
    const results: SyncMemoryResult[] = [];
    const secrets = createSecretBox(randomBytes(32));
    const organizationId = (await createOrganization(db, CLI_OPERATOR, "Benchmark")).id;
    // A small unmeasured pass first: code loading and connection pools are not the pass's growth.
    const warmUp: SyncMemoryCase = { rows: 2_000, batchSize: 500 };
    for (const benchCase of [warmUp, ...cases]) {
      const table = `customers_${benchCase.rows}`;
      await customer.query(`CREATE TABLE IF NOT EXISTS public.${table} (id int PRIMARY KEY, name text, email text, city text, score int, updated_at timestamptz)`);
      const { rows } = await customer.query<{ n: number }>(`SELECT count(*)::int AS n FROM public.${table}`);
      if (rows[0]?.n !== benchCase.rows) {
        await customer.query(`TRUNCATE public.${table}`);
        await customer.query(
          `INSERT INTO public.${table} SELECT g, 'Customer ' || g, 'c' || g || '@example.com', (ARRAY['Lyon','Oslo','Lima','Pune'])[1 + g % 4], g % 1000, now() FROM generate_series(1, $1) g`,
          [benchCase.rows],
        );
      }
      const { id } = await createManagedSource(db, secrets, CLI_OPERATOR, {
        kind: "postgres_table",
        organizationId,
        name: table,
        config: { table: `public.${table}`, keyColumn: "id" },
        credentials: { url: customerUrl },
      }, BENCH_TARGETS);
      const result = await measurePass(db, secrets, id, benchCase);
      await db.dataSource.delete({ where: { id } }); // its rows go with it: the next case starts clean
      if (benchCase === warmUp) continue;
      results.push(result);
      log(
        `${String(result.rows).padStart(8)} ${String(result.batchSize).padStart(6)} ${result.seconds.toFixed(1).padStart(8)} ${String(result.rowsPerSecond).padStart(8)} ${result.peakRssGrowthMb.toFixed(1).padStart(13)} ${result.peakHeapGrowthMb.toFixed(1).padStart(14)} ${result.retainedHeapMb.toFixed(1).padStart(13)}`,
      );
    }
    await writeResults(results);
    return results;
  } finally {
    await customer.end().catch(() => undefined);
    await db.$disconnect();
    await dropDatabase(adminUrl, appName).catch(() => undefined);
    await dropDatabase(adminUrl, customerName).catch(() => undefined);
    await server.stop();
  }
}

/** The customer table lives on the benchmark's own local server: private targets allowed. */
const BENCH_TARGETS = { policy: { allowPrivate: true }, serviceDatabaseUrl: () => undefined };

async function measurePass(db: PrismaClient, secrets: ReturnType<typeof createSecretBox>, sourceId: string, benchCase: SyncMemoryCase): Promise<SyncMemoryResult> {
  globalThis.gc?.();
  const baseline = process.memoryUsage();
  let peakRss = baseline.rss;
  let peakHeap = baseline.heapUsed;
  const sample = () => {
    const now = process.memoryUsage();
    peakRss = Math.max(peakRss, now.rss);
    peakHeap = Math.max(peakHeap, now.heapUsed);
  };
  const sampler = setInterval(sample, 10);
  const started = performance.now();
  try {
    const outcome = await runSyncPass({ db, secrets, targets: BENCH_TARGETS }, sourceId, { trigger: "bench", batchSize: benchCase.batchSize, onBatch: sample });
    if (outcome.status !== "ok" || outcome.counts.inserted !== benchCase.rows) throw new Error(`unexpected pass outcome: ${JSON.stringify(outcome)}`);
  } finally {
    clearInterval(sampler);
  }
  const seconds = (performance.now() - started) / 1000;
  const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;
  return {
    ...benchCase,
    seconds: Math.round(seconds * 10) / 10,
    rowsPerSecond: Math.round(benchCase.rows / seconds),
    peakRssGrowthMb: mb(peakRss - baseline.rss),
    peakHeapGrowthMb: mb(peakHeap - baseline.heapUsed),
    retainedHeapMb: mb(retainedHeap(baseline.heapUsed)),
  };
}

function retainedHeap(baseline: number): number {
  if (!globalThis.gc) return Number.NaN;
  globalThis.gc();
  return process.memoryUsage().heapUsed - baseline;
}

async function writeResults(results: SyncMemoryResult[]): Promise<void> {
  const dir = path.resolve("bench/results");
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, "sync-memory.json"), `${JSON.stringify({ at: new Date().toISOString(), node: process.version, results }, null, 2)}\n`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  runSyncMemoryBench().then(
    () => process.exit(0),
    (error: unknown) => {
      process.stderr.write(`sync memory benchmark failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exit(1);
    },
  );
}
