import http from "node:http";
import pg from "pg";
import { createManagedSource } from "@/server/modules/data-sources/create-managed-source";
import { createSecretBox } from "@/server/modules/data-sources/credentials/secret-box";
import { requestSourceSync } from "@/server/modules/data-sources/sync-queue";
import { CLI_OPERATOR } from "@/server/modules/access/acting-principal";
import { createPrismaClient } from "@/server/db/client";
import { get, percentile, type Target } from "./load";
import { memoryOf, startNode, stop, waitForLine } from "./proc";
import type { Fixture } from "./seed";
import { ms, ratio, type Table } from "./table";

const APP_PORT = 3233;

interface SharingBenchOptions {
  appUrl: string;
  customerUrl: string;
  fixture: Fixture;
  rows: number;
  stepSeconds: number;
  table: Table;
  log: (line: string) => void;
}

/** Sequential `limit=1` requests on one keep-alive connection until `until()` says stop. */
async function sample(target: Target, until: () => boolean): Promise<{ p50: number; p99: number; max: number; count: number }> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const times: number[] = [];
  while (!until()) {
    const t0 = performance.now();
    const { status } = await get(agent, target, "limit=1");
    times.push(performance.now() - t0);
    if (status !== 200) throw new Error(`limit=1 answered ${status}`);
  }
  agent.destroy();
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p99: percentile(times, 99), max: times.at(-1) ?? Number.NaN, count: times.length };
}

/**
 * Issue 27 item 5: `npm start` with its sync worker on (a process of its own, D310), `limit=1`
 * latency on the web process idle, then while the worker runs a first pass of the whole
 * customer table into a new source. Target: p99 during the pass ≤ 2× idle.
 */
export async function runSharingBench(options: SharingBenchOptions): Promise<void> {
  const { fixture, table, log } = options;
  const db = createPrismaClient(options.appUrl);
  const app = new pg.Client({ connectionString: options.appUrl });
  await app.connect();
  let child: ReturnType<typeof startNode> | undefined;
  try {
    // Only the measured pass may run: every other source leaves the schedule.
    await app.query("UPDATE data_sources SET sync_interval_seconds = NULL");
    const secrets = createSecretBox(Buffer.from(fixture.encryptionKeyHex, "hex"));
    const targets = { policy: { allowPrivate: true }, serviceDatabaseUrl: () => options.appUrl };
    const source = await createManagedSource(
      db,
      secrets,
      CLI_OPERATOR,
      {
        kind: "postgres_table",
        organizationId: fixture.organizationId,
        name: "sharing",
        syncIntervalSeconds: null,
        config: { table: "public.customers", keyColumn: "id" },
        credentials: { url: options.customerUrl },
      },
      targets,
    );
    child = startNode("scripts/start.mjs", [], {
      DATABASE_URL: options.appUrl,
      GROUNDWORK_ALLOW_GENERATED_SECRETS: "on",
      PORT: String(APP_PORT),
      HOST: "127.0.0.1",
      GROUNDWORK_WORKER: "on",
      GROUNDWORK_SEED: "off",
      GROUNDWORK_DATA_DIR: ".data/bench",
      GROUNDWORK_ENCRYPTION_KEY: fixture.encryptionKeyHex,
      GROUNDWORK_ALLOW_PRIVATE_TARGETS: "on",
      REDIS_URL: "",
    });
    const workerPid = Number((await waitForLine(child, /worker: running in its own process \(pid (\d+)\)/, 300_000))[1]);
    const target: Target = {
      port: APP_PORT,
      path: `/api/v1/organizations/${fixture.organizationId}/data-sources/${fixture.rowsSourceId}/rows`,
      token: fixture.token,
    };
    let warm = 0;
    await sample(target, () => warm++ >= 200);
    const idleEnd = performance.now() + options.stepSeconds * 1000;
    const idle = await sample(target, () => performance.now() >= idleEnd);

    const runStatus = async () =>
      (
        await app.query<{ status: string; inserted: number; seconds: number | null }>(
          `SELECT status, inserted, extract(epoch FROM finished_at - started_at)::float8 AS seconds FROM sync_runs WHERE data_source_id = $1 ORDER BY started_at DESC LIMIT 1`,
          [source.id],
        )
      ).rows[0];
    await requestSourceSync(db, CLI_OPERATOR, source.id);
    // Measured from the moment the pass is running until it has finished.
    for (let run = await runStatus(); run?.status !== "running"; run = await runStatus()) {
      if (run && run.status !== "running") throw new Error(`the pass ended before it was seen running: ${JSON.stringify(run)}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    let finished = false;
    let workerPeakMb = 0;
    const watcher = (async () => {
      while (!finished) {
        workerPeakMb = Math.max(workerPeakMb, memoryOf(workerPid).peakMb);
        finished = (await runStatus())?.status !== "running";
        if (!finished) await new Promise((resolve) => setTimeout(resolve, 100));
      }
    })();
    const during = await sample(target, () => finished);
    await watcher;
    const run = await runStatus();
    if (run?.status !== "ok" || run.inserted !== options.rows) throw new Error(`unexpected first pass: ${JSON.stringify(run)}`);
    const met = during.p99 <= 2 * idle.p99;
    log(
      `sharing: idle p50 ${ms(idle.p50)} p99 ${ms(idle.p99)} (${idle.count}); during a ${run.seconds?.toFixed(1)} s first pass p50 ${ms(during.p50)} p99 ${ms(during.p99)} max ${ms(during.max)} (${during.count})`,
    );
    table.add(
      `API \`limit=1\` p50 / p99 (max) on \`npm start\` while its worker process runs a first pass of ${options.rows.toLocaleString("en")} rows (${run.seconds?.toFixed(1)} s, worker peak RSS ${workerPeakMb.toFixed(0)} MB); reference: idle`,
      `${ms(during.p50)} / ${ms(during.p99)} (${ms(during.max)}), ${during.count} req`,
      `${ms(idle.p50)} / ${ms(idle.p99)}, ${idle.count} req`,
      ratio(during.p99, idle.p99),
      `p99 ≤ 2× idle ${met ? "✔" : "✗"}`,
    );
  } finally {
    if (child) await stop(child);
    await app.end();
    await db.$disconnect();
  }
}
