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

interface PassFigures {
  seconds: number;
  peakMb: number;
  statements: number;
  customerRows: number;
}

type RunRow = Record<string, number> & {
  seconds: number;
  status: string;
  capture_mode: string;
  full_compare: boolean;
  customer_statements: number;
  customer_rows_read: number;
};

/**
 * The capture modes measured after the first pass, one entry each (issue 27): the mode is set on
 * the source, then a 1 %-changed and a nothing-changed pass run in it. Each pass must have read
 * the way the mode says (incremental or full), or the figure would measure a fallback. The
 * targets are xmin's (and CDC's, cdc-bench.ts); the content-hash compare, which reads every row
 * by design, is measured as the reference they improve on.
 */
const BENCH_MODES = [
  { mode: "xmin", incremental: true, targeted: true },
  { mode: "compare", incremental: false, targeted: false },
] as const;

/**
 * Each pass runs in its own CLI process (`source sync`), as an operator or the worker would, so
 * its peak RSS is the pass's own. The pass's time is its sync run's (started → finished), which
 * leaves out the CLI's start-up.
 */
async function syncPass(options: SyncBenchOptions, expect: (run: RunRow) => boolean): Promise<PassFigures> {
  const child = startNode("src/cli/main.ts", ["source", "sync", options.fixture.syncSourceId, "--json"], {
    DATABASE_URL: options.appUrl,
    GROUNDWORK_ENCRYPTION_KEY: options.fixture.encryptionKeyHex,
    // The customer table is on the benchmark's local server.
    GROUNDWORK_ALLOW_PRIVATE_TARGETS: "on",
  });
  const { code, output, peakMb } = await runToEnd(child);
  if (code !== 0) throw new Error(`sync failed (${code}): ${output.slice(-2000)}`);
  const [run] = await onApp(options.appUrl, (app) =>
    app.query<RunRow>(
      `SELECT status, inserted, updated, tombstoned, revived, declined, capture_mode::text, full_compare, customer_statements, customer_rows_read,
              extract(epoch FROM finished_at - started_at)::float8 AS seconds
         FROM sync_runs WHERE data_source_id = $1 ORDER BY started_at DESC LIMIT 1`,
      [options.fixture.syncSourceId],
    ),
  ).then((result) => result.rows);
  if (!run || run.status !== "ok" || !expect(run)) throw new Error(`unexpected sync run: ${JSON.stringify(run)}`);
  return { seconds: run.seconds, peakMb, statements: run.customer_statements, customerRows: run.customer_rows_read };
}

async function onApp<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

async function copyOut(url: string): Promise<number> {
  return onApp(url, async (client) => {
    const started = performance.now();
    const stream = client.query(copyTo("COPY public.customers TO STDOUT"));
    let bytes = 0;
    for await (const chunk of stream) bytes += (chunk as Buffer).length;
    if (bytes === 0) throw new Error("COPY returned nothing");
    return (performance.now() - started) / 1000;
  });
}

const mark = (ok: boolean) => (ok ? "✔" : "✗");
const cost = (pass: PassFigures) => `${pass.statements.toLocaleString("en")} statements, ${pass.customerRows.toLocaleString("en")} rows`;

export async function runSyncBench(options: SyncBenchOptions): Promise<void> {
  const { rows, table, log } = options;
  log("sync: first pass...");
  // A new source without a mode: its first pass is a full copy, after which it moves to xmin.
  const first = await syncPass(options, (run) => run.inserted === rows && run.full_compare);
  log(`sync first pass ${first.seconds.toFixed(1)} s`);
  const changed = Math.floor(rows / 100);
  const modes: Array<{ mode: string; targeted: boolean; onePercent: PassFigures; nothing: PassFigures }> = [];
  for (const { mode, incremental, targeted } of BENCH_MODES) {
    await onApp(options.appUrl, (app) =>
      app.query(`UPDATE data_sources SET capture_mode = $2::"CaptureMode" WHERE id = $1`, [options.fixture.syncSourceId, mode]),
    );
    await onApp(options.customerUrl, (customer) => customer.query("UPDATE public.customers SET score = score + 1 WHERE id % 100 = 0"));
    const read = (run: RunRow) => run.capture_mode === mode && run.full_compare === !incremental;
    const onePercent = await syncPass(options, (run) => read(run) && run.updated === changed && run.inserted === 0);
    const nothing = await syncPass(options, (run) => read(run) && run.updated === 0 && run.inserted === 0 && run.tombstoned === 0);
    log(`sync (${mode}): 1 % ${onePercent.seconds.toFixed(2)} s, nothing ${nothing.seconds.toFixed(2)} s`);
    modes.push({ mode, targeted, onePercent, nothing });
  }
  const copy = await copyOut(options.customerUrl);
  const rate = (s: number) => `${Math.round(rows / s).toLocaleString("en")} rows/s`;
  table.add(
    `sync: first pass of ${rows.toLocaleString("en")} rows (reference: \`COPY … TO STDOUT\` of the table)`,
    `${first.seconds.toFixed(1)} s, ${rate(first.seconds)}`,
    `${copy.toFixed(1)} s, ${rate(copy)}`,
    `${(first.seconds / copy).toFixed(1)}× COPY`,
    `≥ 50 000 rows/s ${mark(rows / first.seconds >= 50_000)}`,
  );
  table.add("sync: first pass, peak RSS of the CLI process", `${first.peakMb.toFixed(0)} MB`, "–", "–");
  table.add("sync: first pass, customer side", cost(first), "–", "–", "reported");
  for (const { mode, targeted, onePercent, nothing } of modes) {
    const share = (pass: PassFigures) => pass.seconds / first.seconds;
    const target = (label: string, ok: boolean) => (targeted ? `${label} ${mark(ok)}` : "– (reference)");
    table.add(
      `sync (${mode}): pass with 1 % changed (reference: first pass)`,
      `${onePercent.seconds.toFixed(2)} s`,
      `${first.seconds.toFixed(1)} s`,
      pct(onePercent.seconds, first.seconds),
      target("≤ 10 %", share(onePercent) <= 0.1),
    );
    table.add(
      `sync (${mode}): pass with nothing changed (reference: first pass)`,
      `${nothing.seconds.toFixed(2)} s`,
      `${first.seconds.toFixed(1)} s`,
      pct(nothing.seconds, first.seconds),
      target("≤ 5 %", share(nothing) <= 0.05),
    );
    table.add(`sync (${mode}): customer side, 1 % / nothing-changed pass`, `${cost(onePercent)} / ${cost(nothing)}`, "–", "–", "reported");
    table.add(`sync (${mode}): peak RSS, 1 % / nothing-changed passes`, `${onePercent.peakMb.toFixed(0)} / ${nothing.peakMb.toFixed(0)} MB`, "–", "–");
  }
  await runCdcBench({ appUrl: options.appUrl, fixture: options.fixture, rows, table, log, firstPassSeconds: first.seconds });
}
