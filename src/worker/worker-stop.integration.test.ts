import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { runMigrations } from "graphile-worker";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI_OPERATOR } from "@/server/modules/access/acting-principal";
import { loadEncryptionKey } from "@/server/modules/data-sources/credentials/encryption-key";
import { createSecretBox, type SecretBox } from "@/server/modules/data-sources/credentials/secret-box";
import { requestSourceSync } from "@/server/modules/data-sources/sync-queue";
import { useCustomerDatabase } from "@/server/modules/data-sources/testing/customer-database";
import { createTableSource } from "@/server/modules/data-sources/testing/source-fixtures";
import { useTestDatabase } from "@/test/db";
import { startWorker } from "./start-worker";

const db = useTestDatabase();
const customer = useCustomerDatabase();
let dataDir: string;
let secrets: SecretBox;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), "gw-worker-stop-"));
  secrets = createSecretBox(await loadEncryptionKey(dataDir));
  await runMigrations({ connectionString: db.url, logger: undefined });
  await customer.query(`CREATE TABLE public.sites (id int PRIMARY KEY, name text)`);
  await customer.query(`INSERT INTO public.sites SELECT g, 's' || g FROM generate_series(1, 2000) g`);
});
afterAll(() => rm(dataDir, { recursive: true, force: true }));

/** Holds the customer table so a pass reading it waits: a pass that is running on demand. */
async function holdTable(): Promise<() => Promise<void>> {
  const client = new pg.Client({ connectionString: customer.url });
  await client.connect();
  await client.query("BEGIN");
  await client.query("LOCK TABLE public.sites IN ACCESS EXCLUSIVE MODE");
  return async () => {
    await client.query("ROLLBACK");
    await client.end();
  };
}

const running = (sourceId: string) => db.prisma.syncRun.count({ where: { dataSourceId: sourceId, status: "running" } });
const okRuns = (sourceId: string) => db.prisma.syncRun.count({ where: { dataSourceId: sourceId, status: "ok" } });
const jobs = (sourceId: string) =>
  db.prisma.$queryRaw<{ attempts: number; locked: boolean; last_error: string | null }[]>`
    SELECT j.attempts, j.locked_at IS NOT NULL AS locked, j.last_error FROM graphile_worker._private_jobs j
     WHERE j.payload->>'sourceId' = ${sourceId}`;

describe("stopping a worker with a pass running (D179)", () => {
  it("takes no new job and lets the running pass finish", async () => {
    const sourceId = await createTableSource(db.prisma, { url: customer.url, table: "public.sites", key: "id" }, secrets);
    const release = await holdTable();
    const lines: string[] = [];
    const worker = await startWorker({ databaseUrl: db.url, log: (line) => lines.push(line), dataDir, pollInterval: 100 });
    await requestSourceSync(db.prisma, CLI_OPERATOR, sourceId);
    await expect.poll(() => running(sourceId), { timeout: 20_000 }).toBe(1);
    const stopped = worker.stop({ deadlineMs: 30_000 });
    await new Promise((resolve) => setTimeout(resolve, 500));
    await release();
    await stopped;
    expect(await okRuns(sourceId)).toBe(1);
    expect(await jobs(sourceId)).toEqual([]);
    expect(lines.join("\n")).toMatch(/taking no new jobs[\s\S]*running passes finished/);
  }, 60_000);

  it("past the deadline, releases the running pass's job, and another worker completes it", async () => {
    const sourceId = await createTableSource(db.prisma, { url: customer.url, table: "public.sites", key: "id" }, secrets);
    const release = await holdTable();
    const lines: string[] = [];
    const first = await startWorker({ databaseUrl: db.url, log: (line) => lines.push(line), dataDir, pollInterval: 100 });
    await requestSourceSync(db.prisma, CLI_OPERATOR, sourceId);
    await expect.poll(() => running(sourceId), { timeout: 20_000 }).toBe(1);
    await first.stop({ deadlineMs: 500 });
    // Released: unlocked, for any worker to take (in a real stop the process exits now, ending the pass).
    expect(await jobs(sourceId)).toEqual([{ attempts: 1, locked: false, last_error: null }]);
    expect(lines.join("\n")).toMatch(/deadline of 500 ms reached: releasing running passes[\s\S]*released the jobs of 1 busy worker/);
    await release();
    const second = await startWorker({ databaseUrl: db.url, log: () => undefined, dataDir, pollInterval: 100 });
    try {
      // Retried after graphile-worker's backoff (e^1 s): the job ends done, with a completed pass.
      await expect.poll(() => jobs(sourceId), { timeout: 30_000, interval: 250 }).toEqual([]);
      expect(await okRuns(sourceId)).toBeGreaterThanOrEqual(1);
    } finally {
      await second.stop();
    }
  }, 90_000);
});
