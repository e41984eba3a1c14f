import { mkdtempSync, mkdirSync, readFileSync, rmSync, chmodSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureBuild } from "@/server/process/ensure-build";
import { createPrismaClient } from "@/server/db/client";
import type { PrismaClient } from "@/server/db/types";
import { CLI_OPERATOR } from "@/server/modules/access/acting-principal";
import { createSecretBox } from "@/server/modules/data-sources/credentials/secret-box";
import { pauseDataSource } from "@/server/modules/data-sources/manage/pause-source";
import { requestSourceSync } from "@/server/modules/data-sources/sync-queue";
import { createTableSource } from "@/server/modules/data-sources/testing/source-fixtures";
import { mintTestKey } from "@/test/api-client";
import { startApp, startBalancer, startWorkerProcess, sharedSecrets, type AppInstance, type Balancer, type Shared } from "./apps";
import { startDataTier, type DataTier } from "./cluster";
import { run, type Child } from "./processes";
import { rowsLoad } from "./rows-load";
import { divergence, walkRows } from "./walks";
import { sampleValue } from "@/server/metrics/testing";

// `npm run test:topology` (issue 46): the topology an instance outgrowing one box runs, on
// loopback: primary + streaming replica, PgBouncer (transaction mode), Redis, two app instances
// behind haproxy, two workers on direct connections. Figures are printed as `topology: …` lines.

const repoRoot = fileURLToPath(new URL("../..", import.meta.url));
const say = (line: string) => process.stdout.write(`topology: ${line}\n`);
let root: string;
let data: DataTier | undefined;
let shared: Shared;
const apps: AppInstance[] = [];
let balancer: Balancer | undefined;
const workers: Child[] = [];
let db: PrismaClient;
let customer: pg.Pool;

beforeAll(async () => {
  const started = Date.now();
  root = mkdtempSync("/tmp/gw-topology-");
  chmodSync(root, 0o755);
  const logDir = path.join(root, "logs");
  mkdirSync(logDir);
  say(`logs in ${logDir}`);
  data = await startDataTier(root, logDir, "groundwork");
  ensureBuild(repoRoot, say);
  shared = { repoRoot, root, logDir, data, secrets: sharedSecrets() };
  // One at a time: the first applies the migrations (on the direct URL).
  // Rows pages may read from the replica (D404).
  const readFromReplica = { GROUNDWORK_READ_DATABASE_URL: data.replicaUrl };
  apps.push(await startApp(shared, "app-a", readFromReplica));
  apps.push(await startApp(shared, "app-b", readFromReplica));
  balancer = await startBalancer(shared, apps);
  workers.push(...(await Promise.all([startWorkerProcess(shared, "worker-1"), startWorkerProcess(shared, "worker-2")])));
  db = createPrismaClient(data.primaryUrl);
  customer = new pg.Pool({ connectionString: data.primaryUrl.replace(/\/groundwork$/, "/customer"), max: 4 });
  say(`topology up in ${Date.now() - started} ms`);
}, 300_000);

afterAll(async () => {
  await customer?.end().catch(() => undefined);
  await db?.$disconnect().catch(() => undefined);
  await Promise.all(workers.map((worker) => worker.stop(10_000)));
  await balancer?.child.stop(5_000);
  await Promise.all(apps.map((app) => app.stop()));
  await data?.stop();
  if (process.env.GROUNDWORK_TOPOLOGY_KEEP !== "on") rmSync(root, { recursive: true, force: true });
}, 120_000);

const secrets = () => createSecretBox(Buffer.from(shared.secrets.GROUNDWORK_ENCRYPTION_KEY!, "hex"));

async function tableSource(table: string, rows: number): Promise<{ sourceId: string; organizationId: string }> {
  await customer.query(`CREATE TABLE public.${table} (id int PRIMARY KEY, name text NOT NULL)`);
  await customer.query(`INSERT INTO public.${table} SELECT g, 'customer ' || g FROM generate_series(1, ${rows}) g`);
  const customerUrl = data!.primaryUrl.replace(/\/groundwork$/, "/customer");
  const sourceId = await createTableSource(db, { url: customerUrl, table: `public.${table}`, key: "id" }, secrets());
  const { organizationId } = await db.dataSource.findUniqueOrThrow({ where: { id: sourceId }, select: { organizationId: true } });
  // Its first pass, queued for the workers as the dashboard's "Sync now" does.
  await requestSourceSync(db, CLI_OPERATOR, sourceId);
  return { sourceId, organizationId: organizationId! };
}

const passDone = (sourceId: string) => db.syncRun.count({ where: { dataSourceId: sourceId, status: "ok" } });

describe("the topology: two instances behind haproxy, PgBouncer, a replica, two workers", () => {
  it("a rolling restart of both app instances under a 16-connection rows load fails no request", { timeout: 180_000 }, async () => {
    const { sourceId, organizationId } = await tableSource("devices_rows", 2_000);
    await expect.poll(() => passDone(sourceId), { timeout: 60_000, interval: 250 }).toBeGreaterThan(0);
    const key = await mintTestKey(db, { organizationId, scopes: ["data_sources:read"], rateLimit: 1_000_000 });
    const load = rowsLoad({ baseUrl: `${balancer!.url}/api/v1`, token: key.token, organizationId, sourceId, connections: 16 });
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    for (const app of apps) {
      const restart = await app.restart();
      say(`${app.name}: drained and exited in ${restart.stoppedMs} ms, healthy again after ${restart.upMs} ms`);
      // Two passing checks (500 ms apart) bring it back into haproxy's rotation.
      await new Promise((resolve) => setTimeout(resolve, 3_000));
    }
    const stats = await load.stop();
    say(
      `rolling restart: ${stats.requests} requests, ${JSON.stringify(stats.statuses)}, ${stats.connectionErrors} connection errors, ${stats.walks} complete walks ${[...stats.errorSamples, ...stats.connectionErrorSamples].join(" | ")}`,
    );
    expect(stats.requests).toBeGreaterThan(100);
    expect(stats.connectionErrors).toBe(0);
    expect(stats.statuses).toEqual({ 200: stats.requests });
  });

  it(
    "kill -9 of the worker running a 200 000-row first pass: the other finishes it within 2 minutes, the mirror equals the table",
    { timeout: 240_000 },
    async () => {
      const { sourceId } = await tableSource("big_customers", 200_000);
      const running = await waitForRunningPass(sourceId, 20_000);
      const victim = await workerRunningPass(running.workerId);
      say(`pass ${running.runId} is on ${victim.name} (pid ${victim.process.pid}) at ${running.rowsRead} rows read: kill -9`);
      const killedAt = Date.now();
      victim.process.kill("SIGKILL");
      await victim.exited;
      await expect.poll(() => passDone(sourceId), { timeout: 120_000, interval: 250 }).toBe(1);
      say(`failover: the surviving worker finished the pass ${Date.now() - killedAt} ms after the kill`);
      const [table] = (
        await customer.query<{ n: number; digest: string }>(
          `SELECT count(*)::int AS n, md5(string_agg(id::text || ':' || name, ',' ORDER BY id)) AS digest FROM public.big_customers`,
        )
      ).rows;
      const [mirror] = await db.$queryRaw<{ n: number; digest: string }[]>`
      SELECT count(*)::int AS n, md5(string_agg(external_id || ':' || (data->>'name'), ',' ORDER BY external_id::int)) AS digest
        FROM data_source_rows WHERE data_source_id = ${sourceId} AND deleted_at IS NULL`;
      expect(mirror).toEqual(table);
      expect(await db.dataSourceRow.count({ where: { dataSourceId: sourceId } })).toBe(200_000);
      // Restart it, for the tests after this one.
      workers.splice(workers.indexOf(victim), 1, await startWorkerProcess(shared, `${victim.name}-again`));
    },
  );

  it(
    "kill -9 of the worker streaming a CDC source: the survivor resumes the stream from the slot and a commit made meanwhile arrives",
    { timeout: 180_000 },
    async () => {
      await customer.query(`CREATE TABLE public.cdc_orders (id int PRIMARY KEY, name text NOT NULL)`);
      await customer.query(`INSERT INTO public.cdc_orders SELECT g, 'order ' || g FROM generate_series(1, 1000) g`);
      await customer.query(`CREATE PUBLICATION groundwork FOR TABLE public.cdc_orders`);
      const customerUrl = data!.primaryUrl.replace(/\/groundwork$/, "/customer");
      const sourceId = await createTableSource(db, { url: customerUrl, table: "public.cdc_orders", key: "id" }, secrets());
      await db.dataSource.update({ where: { id: sourceId }, data: { captureMode: "cdc" } });
      const nameOf = (id: number) => mirroredName(sourceId, id);
      // The baseline (a full compare) done and the slot streaming; then a change streamed before the kill.
      const streaming = async () =>
        (await customer.query<{ active: boolean }>(`SELECT active FROM pg_replication_slots WHERE database = 'customer'`)).rows.some((slot) => slot.active);
      await expect.poll(streaming, { timeout: 90_000, interval: 250 }).toBe(true);
      await customer.query(`UPDATE public.cdc_orders SET name = 'streamed' WHERE id = 1`);
      await expect.poll(() => nameOf(1), { timeout: 90_000, interval: 250 }).toBe("streamed");
      const victim = streamingWorker(sourceId);
      say(`CDC source ${sourceId} streams on ${victim.name} (pid ${victim.process.pid}): kill -9`);
      const killedAt = Date.now();
      victim.process.kill("SIGKILL");
      await victim.exited;
      // Committed while no consumer runs: it waits in the slot, not in any worker's memory.
      await customer.query(`UPDATE public.cdc_orders SET name = 'while down' WHERE id = 2`);
      await customer.query(`DELETE FROM public.cdc_orders WHERE id = 3`);
      // The last commit: once it is mirrored, so are the two before it (the slot delivers in commit order).
      await customer.query(`INSERT INTO public.cdc_orders VALUES (1001, 'inserted while down')`);
      await expect.poll(() => nameOf(1001), { timeout: 60_000, interval: 100 }).toBe("inserted while down");
      say(`CDC failover: the commit made after the kill arrived through the survivor ${Date.now() - killedAt} ms after the kill`);
      say(
        `CDC failover: the stream resumed on ${
          streamingWorker(
            sourceId,
            workers.filter((worker) => worker !== victim),
          ).name
        }`,
      );
      expect(await nameOf(2)).toBe("while down");
      expect(await nameOf(3)).toBeNull();
      // Resumed from the slot, not rebuilt: the baseline is the only full compare.
      expect(await db.syncRun.count({ where: { dataSourceId: sourceId, trigger: "cdc_full_compare" } })).toBe(1);
      const [table] = (
        await customer.query<{ n: number; digest: string }>(
          `SELECT count(*)::int AS n, md5(string_agg(id::text || ':' || name, ',' ORDER BY id)) AS digest FROM public.cdc_orders`,
        )
      ).rows;
      const [mirror] = await db.$queryRaw<{ n: number; digest: string }[]>`
      SELECT count(*)::int AS n, md5(string_agg(external_id || ':' || (data->>'name'), ',' ORDER BY external_id::int)) AS digest
        FROM data_source_rows WHERE data_source_id = ${sourceId} AND deleted_at IS NULL`;
      expect(mirror).toEqual(table);
      // Paused, so the streams of the tests after this one are not this source's; the victim comes back.
      await pauseDataSource(db, CLI_OPERATOR, sourceId);
      workers.splice(workers.indexOf(victim), 1, await startWorkerProcess(shared, `${victim.name}-again`));
    },
  );

  it("a key's rate budget is one budget across both instances (Redis)", { timeout: 60_000 }, async () => {
    const organizationId = (await db.organization.create({ data: { name: "Budget" } })).id;
    const form = (await db.form.create({ data: { organizationId, name: "F" } })).id;
    const key = await mintTestKey(db, { organizationId, scopes: ["records:*"], rateLimit: 20 });
    const statuses: number[] = [];
    for (let i = 0; i < 40; i++) {
      const app = apps[i % 2]!;
      const res = await fetch(`http://127.0.0.1:${app.port}/api/v1/organizations/${organizationId}/forms/${form}/records`, {
        headers: { authorization: `Bearer ${key.token}` },
      });
      await res.arrayBuffer();
      statuses.push(res.status);
    }
    say(
      `rate budget 20/min, 40 requests alternating over both instances: ${statuses.filter((s) => s === 200).length} allowed, ${statuses.filter((s) => s === 429).length} refused`,
    );
    expect(statuses.filter((s) => s === 200)).toHaveLength(20);
    expect(statuses.filter((s) => s === 429)).toHaveLength(20);
  });

  it("idempotency holds exactly once across both instances through the pooler: 100 racing POSTs, 1 record", { timeout: 60_000 }, async () => {
    const organizationId = (await db.organization.create({ data: { name: "Racing" } })).id;
    const form = (await db.form.create({ data: { organizationId, name: "F" } })).id;
    const key = await mintTestKey(db, { organizationId, scopes: ["records:*"], rateLimit: 1_000_000 });
    const body = JSON.stringify({ created_by: "topology-race", field_values: { n: 1 } });
    const results = await Promise.all(
      Array.from({ length: 100 }, async (_, i) => {
        const res = await fetch(`http://127.0.0.1:${apps[i % 2]!.port}/api/v1/organizations/${organizationId}/forms/${form}/records`, {
          method: "POST",
          headers: { authorization: `Bearer ${key.token}`, "content-type": "application/json", "idempotency-key": "race-1" },
          body,
        });
        return { status: res.status, replay: res.headers.get("x-idempotent-replay"), text: await res.text() };
      }),
    );
    const created = results.filter((r) => r.status === 201);
    say(
      `idempotency: 100 racing POSTs over both instances: ${created.length} × 201 (${created.filter((r) => r.replay !== "true").length} original), ${results.filter((r) => r.status === 503).length} × 503, records: ${await db.record.count({ where: { createdBy: "topology-race" } })}`,
    );
    expect(results.map((r) => r.status).filter((s) => s !== 201 && s !== 503)).toEqual([]);
    expect(created.filter((r) => r.replay !== "true")).toHaveLength(1);
    expect(new Set(created.map((r) => r.text)).size).toBe(1);
    expect(await db.record.count({ where: { createdBy: "topology-race" } })).toBe(1);
  });
});

/** Pages served by each target, summed over both instances' /metrics; and the largest replica lag they report. */
async function readsByTarget(): Promise<{ primary: number; replica: number; lagSeconds: number }> {
  const totals = { primary: 0, replica: 0, lagSeconds: 0 };
  for (const app of apps) {
    const res = await fetch(`http://127.0.0.1:${app.port}/metrics`, { headers: { authorization: `Bearer ${shared.secrets.GROUNDWORK_METRICS_TOKEN}` } });
    const text = await res.text();
    totals.primary += sampleValue(text, "groundwork_rows_reads_total", { target: "primary" });
    totals.replica += sampleValue(text, "groundwork_rows_reads_total", { target: "replica" });
    totals.lagSeconds = Math.max(totals.lagSeconds, sampleValue(text, "groundwork_read_replica_lag_seconds"));
  }
  return totals;
}

describe("reads from the replica (D404)", () => {
  it(
    "serves walks from a fresh replica, the primary while it lags by 3 s during passes, and no walk diverges or reads staler than the bound",
    { timeout: 180_000 },
    async () => {
      const rows = 300;
      await customer.query(`CREATE TABLE public.generations (id int PRIMARY KEY, name text NOT NULL)`);
      await customer.query(`INSERT INTO public.generations SELECT g, 'gen0 row ' || g FROM generate_series(1, ${rows}) g`);
      const customerUrl = data!.primaryUrl.replace(/\/groundwork$/, "/customer");
      const sourceId = await createTableSource(db, { url: customerUrl, table: "public.generations", key: "id" }, secrets());
      const { organizationId } = await db.dataSource.findUniqueOrThrow({ where: { id: sourceId }, select: { organizationId: true } });
      await requestSourceSync(db, CLI_OPERATOR, sourceId);
      await expect.poll(() => passDone(sourceId), { timeout: 60_000, interval: 250 }).toBe(1);
      const key = await mintTestKey(db, { organizationId: organizationId!, scopes: ["data_sources:read"], rateLimit: 1_000_000 });
      const walk = () => walkRows(`${balancer!.url}/api/v1`, key.token, organizationId!, sourceId, 50);
      const problems: string[] = [];
      let walks = 0;

      // A replica in step: walks read there (after its first poll).
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      const start = await readsByTarget();
      for (let i = 0; i < 10; i++) {
        const problem = divergence(await walk(), rows);
        walks += 1;
        if (problem) problems.push(problem);
      }
      const fresh = await readsByTarget();
      say(`replica in step: ${fresh.replica - start.replica} of ${fresh.replica + fresh.primary - start.replica - start.primary} pages read on the replica`);
      expect(fresh.replica - start.replica).toBeGreaterThan(0);

      // The replica 3 s behind while passes rewrite every row: walks go on, each one pass's rows.
      await data!.setReplicaDelay(3_000);
      let maxLag = 0;
      for (let generation = 1; generation <= 4; generation++) {
        await customer.query(`UPDATE public.generations SET name = 'gen${generation} row ' || id`);
        await requestSourceSync(db, CLI_OPERATOR, sourceId);
        while ((await passDone(sourceId)) < generation + 1) {
          const problem = divergence(await walk(), rows);
          walks += 1;
          if (problem) problems.push(problem);
          maxLag = Math.max(maxLag, (await readsByTarget()).lagSeconds);
        }
        // 1.5 s after the pass committed the replica (3 s behind) still has the previous pass and its
        // lag is past the 1 s bound: a walk starting now must read the primary, so it sees this pass.
        await new Promise((resolve) => setTimeout(resolve, 1_500));
        for (let i = 0; i < 3; i++) {
          const seen = await walk();
          const problem =
            divergence(seen, rows) ??
            (i === 0 && !seen.rows[0]?.data.name.startsWith(`gen${generation} `)
              ? `a walk 1.5 s after pass ${generation} read ${seen.rows[0]?.data.name.split(" ")[0]}: staler than the lag bound`
              : undefined);
          walks += 1;
          if (problem) problems.push(problem);
        }
      }
      await data!.setReplicaDelay(0);
      const end = await readsByTarget();
      say(
        `replica 3 s behind during 4 passes: ${walks} walks in all, ${problems.length} divergent, largest lag reported ${maxLag.toFixed(2)} s; pages: ${end.replica - start.replica} replica, ${end.primary - start.primary} primary`,
      );
      expect(problems).toEqual([]);
      expect(walks).toBeGreaterThanOrEqual(20);
      expect(maxLag).toBeGreaterThan(1);
    },
  );

  // The last pulls come this long after the last write: the staleness a replica read may have (the
  // apps' 1 s lag bound plus two 200 ms polls, D502), with a margin. Without it an empty final delta
  // on a replica 1 s behind would end a device's run before it saw the last pass.
  const STALENESS_BOUND_MS = 2_000;
  it(
    "the device simulator through haproxy with the replica 2 s behind during passes: 0 divergences over 20 runs, some pages on the replica",
    { timeout: 240_000 },
    async () => {
      // The delay alternates (2 s on, 2 s off): while on, every pass commits behind a replica 2 s
      // back (past the 1 s bound, so reads must fall back or wait for the snapshot); while off, the
      // replica catches up and takes reads, so both paths are exercised in every run.
      let delayed = false;
      let switching: Promise<void> = Promise.resolve();
      const toggling = setInterval(() => {
        delayed = !delayed;
        switching = switching.then(() => data!.setReplicaDelay(delayed ? 2_000 : 0)).catch(() => undefined);
      }, 2_000);
      const before = await readsByTarget();
      const started = Date.now();
      // `npm run simulate:devices` against the running topology: its passes commit on the primary, its devices read through haproxy.
      const output = await run(
        process.execPath,
        ["--import", "tsx", "scripts/simulate-devices.ts", "--runs", "20", "--mode", "compare", "--seed", "46", "--settle-ms", String(STALENESS_BOUND_MS)],
        {
          cwd: repoRoot,
          env: { ...process.env, NODE_ENV: "production", GROUNDWORK_ALLOW_PRIVATE_TARGETS: "on", BASE_URL: balancer!.url, DATABASE_URL: data!.primaryUrl },
          logFile: path.join(repoRoot, "reports", "topology-simulator.log"),
        },
      );
      clearInterval(toggling);
      await switching;
      await data!.setReplicaDelay(0);
      const after = await readsByTarget();
      const summary = output.split("\n").filter((line) => line.startsWith("Summary") || line.startsWith("  "));
      const [replica, primary] = [after.replica - before.replica, after.primary - before.primary];
      say(
        `device simulator (20 runs, compare mode, replica delay 2 s on / 2 s off, ${Date.now() - started} ms): ${summary.join(" / ")}; pages: ${replica} replica (${((100 * replica) / Math.max(1, replica + primary)).toFixed(1)} %), ${primary} primary`,
      );
      expect(output).toMatch(/Summary \(compare\): 20 runs .*; 0 runs diverged/);
      expect(replica).toBeGreaterThan(0);
    },
  );

  it("a replica that goes down mid-load turns into no error: the primary answers", { timeout: 60_000 }, async () => {
    const { sourceId, organizationId } = await tableSource("replica_down_rows", 500);
    await expect.poll(() => passDone(sourceId), { timeout: 60_000, interval: 250 }).toBe(1);
    const key = await mintTestKey(db, { organizationId, scopes: ["data_sources:read"], rateLimit: 1_000_000 });
    const load = rowsLoad({ baseUrl: `${balancer!.url}/api/v1`, token: key.token, organizationId, sourceId, connections: 8 });
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    await data!.stopReplica();
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const stats = await load.stop();
    say(
      `replica stopped mid-load: ${stats.requests} requests, ${JSON.stringify(stats.statuses)}, ${stats.connectionErrors} connection errors ${[...stats.errorSamples, ...stats.connectionErrorSamples].join(" | ")}`,
    );
    expect(stats.connectionErrors).toBe(0);
    expect(stats.statuses).toEqual({ 200: stats.requests });
  });
});

/** A mirrored row's name, or null when the row is absent or a tombstone. */
async function mirroredName(sourceId: string, externalId: number): Promise<string | null> {
  const row = await db.dataSourceRow.findFirst({ where: { dataSourceId: sourceId, externalId: String(externalId), deletedAt: null }, select: { data: true } });
  return (row?.data as { name?: string } | undefined)?.name ?? null;
}

/** Of the candidates, the one worker process whose change-capture consumer for the source started (its own log says so). */
function streamingWorker(sourceId: string, candidates: Child[] = workers): Child {
  const line = `data source ${sourceId}: change capture consumer started`;
  const started = candidates.filter((worker) => readFileSync(path.join(shared.logDir, `${worker.name}.log`), "utf8").includes(line));
  if (started.length !== 1) throw new Error(`expected one worker streaming ${sourceId}, found ${started.map((worker) => worker.name).join(", ") || "none"}`);
  return started[0]!;
}

async function waitForRunningPass(sourceId: string, minRowsRead: number): Promise<{ runId: string; rowsRead: number; workerId: string }> {
  let found: { runId: string; rowsRead: number; workerId: string } | undefined;
  await expect
    .poll(
      async () => {
        const run = await db.syncRun.findFirst({ where: { dataSourceId: sourceId, status: "running" }, orderBy: { startedAt: "desc" } });
        const jobs = await db.$queryRaw<{ locked_by: string }[]>`
          SELECT locked_by FROM graphile_worker._private_jobs WHERE locked_by IS NOT NULL AND payload->>'sourceId' = ${sourceId}`;
        if (run && run.rowsRead >= minRowsRead && jobs[0]) found = { runId: run.id, rowsRead: run.rowsRead, workerId: jobs[0].locked_by };
        return found !== undefined;
      },
      { timeout: 90_000, interval: 100 },
    )
    .toBe(true);
  return found!;
}

/** The worker process whose graphile worker holds the job: its presence connection names its pid (D401). */
async function workerRunningPass(workerId: string): Promise<Child> {
  const rows = await db.$queryRaw<{ application_name: string }[]>`
    SELECT a.application_name FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
     WHERE l.locktype = 'advisory' AND a.application_name LIKE 'groundwork-worker %'
       AND l.classid::bigint = ((hashtextextended('groundwork-worker:' || ${workerId}, 0) >> 32) & 4294967295)
       AND l.objid::bigint = (hashtextextended('groundwork-worker:' || ${workerId}, 0) & 4294967295)`;
  const pid = Number(rows[0]?.application_name.split(":").pop());
  const worker = workers.find((candidate) => candidate.process.pid === pid);
  if (!worker) throw new Error(`no worker process of this test holds graphile worker ${workerId} (presence: ${JSON.stringify(rows)})`);
  return worker;
}
