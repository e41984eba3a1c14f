import pg from "pg";
import { to as copyTo } from "pg-copy-streams";
import { runToEnd, startNode } from "./proc";
import type { Fixture } from "./seed";
import { pct, type Table } from "./table";
import { runCdcBench } from "./cdc-bench";

interface SyncBenchOptions {
  appUrl: string;
  customerUrl: string;
  fixture: Fixture;
  rows: number;
  table: Table;
  log: (line: string) => void;
}

/**
 * Each pass runs in its own CLI process (`source sync`), as an operator or the worker would, so
 * its peak RSS is the pass's own. The pass's time is its sync run's (started → finished), which
 * leaves out the CLI's start-up.
 */
async function syncPass(options: SyncBenchOptions, expect: (run: Record<string, number>) => boolean): Promise<{ seconds: number; peakMb: number }> {
  const child = startNode("src/cli/main.ts", ["source", "sync", options.fixture.syncSourceId, "--json"], {
    DATABASE_URL: options.appUrl,
    GROUNDWORK_ENCRYPTION_KEY: options.fixture.encryptionKeyHex,
    // The customer table is on the benchmark's local server.
    GROUNDWORK_ALLOW_PRIVATE_TARGETS: "on",
  });
  const { code, output, peakMb } = await runToEnd(child);
  if (code !== 0) throw new Error(`sync failed (${code}): ${output.slice(-2000)}`);
  const app = new pg.Client({ connectionString: options.appUrl });
  await app.connect();
  try {
    const { rows } = await app.query<Record<string, number> & { seconds: number; status: string }>(
      `SELECT status, inserted, updated, tombstoned, revived, declined,
              extract(epoch FROM finished_at - started_at)::float8 AS seconds
         FROM sync_runs WHERE data_source_id = $1 ORDER BY started_at DESC LIMIT 1`,
      [options.fixture.syncSourceId],
    );
    const run = rows[0];
    if (!run || run.status !== "ok" || !expect(run)) throw new Error(`unexpected sync run: ${JSON.stringify(run)}`);
    return { seconds: run.seconds, peakMb };
  } finally {
    await app.end();
  }
}

async function copyOut(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const started = performance.now();
    const stream = client.query(copyTo("COPY public.customers TO STDOUT"));
    let bytes = 0;
    for await (const chunk of stream) bytes += (chunk as Buffer).length;
    if (bytes === 0) throw new Error("COPY returned nothing");
    return (performance.now() - started) / 1000;
  } finally {
    await client.end();
  }
}

export async function runSyncBench(options: SyncBenchOptions): Promise<void> {
  const { rows, table, log } = options;
  log("sync: first pass...");
  const first = await syncPass(options, (run) => run.inserted === rows);
  log(`sync first pass ${first.seconds.toFixed(1)} s`);
  const customer = new pg.Client({ connectionString: options.customerUrl });
  await customer.connect();
  try {
    await customer.query("UPDATE public.customers SET score = score + 1 WHERE id % 100 = 0");
  } finally {
    await customer.end();
  }
  const changed = Math.floor(rows / 100);
  const onePercent = await syncPass(options, (run) => run.updated === changed && run.inserted === 0);
  const nothing = await syncPass(options, (run) => run.updated === 0 && run.inserted === 0 && run.tombstoned === 0);
  const copy = await copyOut(options.customerUrl);
  log(`sync 1 % ${onePercent.seconds.toFixed(1)} s, nothing ${nothing.seconds.toFixed(1)} s, COPY ${copy.toFixed(1)} s`);
  const rate = (s: number) => `${Math.round(rows / s).toLocaleString("en")} rows/s`;
  table.add(
    `sync: first pass of ${rows.toLocaleString("en")} rows (reference: \`COPY … TO STDOUT\` of the table)`,
    `${first.seconds.toFixed(1)} s, ${rate(first.seconds)}`,
    `${copy.toFixed(1)} s, ${rate(copy)}`,
    `${(first.seconds / copy).toFixed(1)}× COPY`,
    "≥ 50 000 rows/s",
  );
  table.add("sync: first pass, peak RSS of the CLI process", `${first.peakMb.toFixed(0)} MB`, "–", "–");
  table.add("sync: pass with 1 % changed (reference: first pass)", `${onePercent.seconds.toFixed(1)} s`, `${first.seconds.toFixed(1)} s`, pct(onePercent.seconds, first.seconds), "≤ 10 %");
  table.add("sync: pass with nothing changed (reference: first pass)", `${nothing.seconds.toFixed(1)} s`, `${first.seconds.toFixed(1)} s`, pct(nothing.seconds, first.seconds), "≤ 5 %");
  table.add("sync: peak RSS, 1 % / nothing-changed passes", `${onePercent.peakMb.toFixed(0)} / ${nothing.peakMb.toFixed(0)} MB`, "–", "–");
  await runCdcBench({ appUrl: options.appUrl, fixture: options.fixture, rows, table, log, firstPassSeconds: first.seconds });
}
