import { spawn } from "node:child_process";
import path from "node:path";
import { createDatabase, databaseUrl, dropDatabase, randomDatabaseName } from "@/server/db/admin";
import { prepareDatabase } from "@/server/db/bootstrap";
import { createPrismaClient } from "@/server/db/client";
import { applyMigrations } from "@/server/db/migrations";

/**
 * Peak memory of the records CSV export (issue 25): a small form (BENCH_EXPORT_SMALL, 10 000
 * records) and a large one (BENCH_ROWS, 1 000 000) are exported, each in a fresh process; flat
 * memory means the two peaks are about equal. Records carry 8 fields, one nested, one a
 * formula-looking text. `npx tsx bench/records-export.ts`, or `BENCH_ONLY=export npm run bench`.
 */
const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);
const SMALL = Number(process.env.BENCH_EXPORT_SMALL ?? 10_000);
const HEAP_CAP_MB = 128;

export interface ExportRun {
  rows: number;
  columns: number;
  mb: number;
  seconds: number;
  rssBeforeMb: number;
  peakRssMb: number;
}

function runChild(url: string, organizationId: string, formId: string): Promise<ExportRun> {
  return new Promise((resolve, reject) => {
    // NOTE: a V8 heap capped at HEAP_CAP_MB: an export whose memory grew with the record count
    // would die of it at 1 000 000 records instead of merely looking big.
    const child = spawn(
      process.execPath,
      [`--max-old-space-size=${HEAP_CAP_MB}`, "--import", "tsx", path.resolve("bench/records-export-child.ts"), url, organizationId, formId],
      {
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let out = "";
    let err = "";
    child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (err += chunk.toString()));
    child.once("exit", (code) =>
      code === 0 ? resolve(JSON.parse(out.trim().split("\n").pop()!) as ExportRun) : reject(new Error(`export child exited ${code}: ${err.slice(-2000)}`)),
    );
  });
}

export async function runRecordsExportBench(
  log: (line: string) => void = (line) => process.stdout.write(`${line}\n`),
): Promise<{ small: ExportRun; large: ExportRun }> {
  const server = await prepareDatabase({ dataDir: path.resolve(".data/bench-postgres"), log: () => undefined });
  const adminUrl = databaseUrl(server.url, "postgres");
  const name = randomDatabaseName("gw_bench_export");
  await createDatabase(adminUrl, name);
  const url = databaseUrl(adminUrl, name);
  const db = createPrismaClient(url);
  try {
    await applyMigrations(url, { migrationsDir: path.resolve("prisma/migrations") });
    const org = await db.organization.create({ data: { name: "Export bench" } });
    const small = await db.form.create({ data: { organizationId: org.id, name: "small" } });
    const large = await db.form.create({ data: { organizationId: org.id, name: "large" } });
    const started = performance.now();
    for (const [form, count] of [
      [small, SMALL],
      [large, ROWS],
    ] as const) {
      // In slices of 100 000 so one statement's WAL and memory stay modest.
      for (let from = 1; from <= count; from += 100_000) {
        const to = Math.min(count, from + 99_999);
        await db.$executeRaw`
          INSERT INTO records (id, organization_id, form_id, created_by, field_values, created_at)
          SELECT gen_random_uuid()::text, ${org.id}, ${form.id}, 'device-' || (g % 50),
                 jsonb_build_object('site', 'S-' || (g % 997), 'reading', g * 0.25, 'ok', g % 3 = 0,
                   'note', CASE WHEN g % 101 = 0 THEN '=HYPERLINK("http://x")' ELSE 'routine check ' || g END,
                   'tags', jsonb_build_array('a', g % 7), 'gps', jsonb_build_object('lat', 52.3 + g % 100 * 0.001, 'lon', 4.9),
                   'inspector', 'person ' || (g % 40), 'count', g % 1000),
                 timestamptz '2026-01-01' + g * interval '1 second'
            FROM generate_series(${from}::int, ${to}::int) g`;
      }
    }
    await db.$executeRawUnsafe("ANALYZE records");
    log(`export bench: seeded ${SMALL} + ${ROWS} records in ${((performance.now() - started) / 1000).toFixed(0)} s`);
    const smallRun = await runChild(url, org.id, small.id);
    log(`export ${smallRun.rows} records: ${JSON.stringify(smallRun)}`);
    const largeRun = await runChild(url, org.id, large.id);
    log(`export ${largeRun.rows} records: ${JSON.stringify(largeRun)}`);
    log(
      `  V8 heap capped at ${HEAP_CAP_MB} MB; peak RSS ${smallRun.peakRssMb.toFixed(0)} MB at ${smallRun.rows} records, ${largeRun.peakRssMb.toFixed(0)} MB at ${largeRun.rows} (${(largeRun.rows / largeRun.seconds).toFixed(0)} records/s, ${largeRun.mb.toFixed(0)} MB of CSV)`,
    );
    return { small: smallRun, large: largeRun };
  } finally {
    await db.$disconnect().catch(() => undefined);
    await dropDatabase(adminUrl, name).catch(() => undefined);
    await server.stop();
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve("bench/records-export.ts")) {
  runRecordsExportBench().then(
    () => process.exit(0),
    (error: unknown) => {
      process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
      process.exit(1);
    },
  );
}
