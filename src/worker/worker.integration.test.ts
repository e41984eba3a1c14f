import { CLI_OPERATOR } from "@/server/modules/access/acting-principal";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { runMigrations } from "graphile-worker";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, useTestDatabase } from "@/test/db";
import { createPrismaClient } from "@/server/db/client";
import { loadEncryptionKey } from "@/server/modules/data-sources/credentials/encryption-key";
import { createSecretBox, type SecretBox } from "@/server/modules/data-sources/credentials/secret-box";
import { useCustomerDatabase } from "@/server/modules/data-sources/testing/customer-database";
import { createTableSource } from "@/server/modules/data-sources/testing/source-fixtures";
import { enqueueDueSources } from "./enqueue-due-sources";
import { mintTestKey } from "@/test/api-client";
import { requestSourceSync, SYNC_SOURCE_TASK, syncJobKey } from "@/server/modules/data-sources/sync-queue";
import { IDEMPOTENCY_CLEANUP_TASK } from "./jobs";
import { startWorker, type RunningWorker } from "./start-worker";

const db = useTestDatabase();
const customer = useCustomerDatabase();
let dataDir: string;
let secrets: SecretBox;
const quiet = () => undefined;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), "gw-worker-"));
  secrets = createSecretBox(await loadEncryptionKey(dataDir));
  await runMigrations({ connectionString: db.url, logger: undefined });
  await customer.query(`CREATE TABLE public.accounts (id int PRIMARY KEY, name text)`);
  await customer.query(`INSERT INTO public.accounts SELECT g, 'a' || g FROM generate_series(1, 3000) g`);
});
afterAll(() => rm(dataDir, { recursive: true, force: true }));

const source = (interval: number | null = null) => createTableSource(db.prisma, { url: customer.url, table: "public.accounts", key: "id", interval }, secrets);

/** The jobs of a source (graphile-worker's public view hides payloads, so its private table). */
async function queuedJobs(sourceId: string) {
  return db.prisma.$queryRaw<{ key: string | null; locked: boolean }[]>`
    SELECT j.key, j.locked_at IS NOT NULL AS locked
      FROM graphile_worker._private_jobs j JOIN graphile_worker._private_tasks t ON t.id = j.task_id
     WHERE t.identifier = ${SYNC_SOURCE_TASK} AND j.payload->>'sourceId' = ${sourceId}`;
}

async function finishedRuns(sourceId: string, count: number) {
  await expect
    .poll(() => db.prisma.syncRun.count({ where: { dataSourceId: sourceId, status: { not: "running" } } }), { timeout: 30_000, interval: 100 })
    .toBeGreaterThanOrEqual(count);
  return db.prisma.syncRun.findMany({ where: { dataSourceId: sourceId }, orderBy: { startedAt: "asc" } });
}

describe("scheduling on graphile-worker", () => {
  it('"sync now" refuses unknown sources, and says so when no worker ever installed the queue', async () => {
    await expect(requestSourceSync(db.prisma, CLI_OPERATOR, "no-such-source")).rejects.toMatchObject({ code: "not_found" });
    const fresh = await createTestDatabase({ migrated: true });
    const prisma = createPrismaClient(fresh.url);
    try {
      const sourceId = await createTableSource(prisma, { url: customer.url, table: "public.accounts", key: "id" }, secrets);
      await expect(requestSourceSync(prisma, CLI_OPERATOR, sourceId)).rejects.toMatchObject({
        code: "service_unavailable",
        message: expect.stringMatching(/No sync worker has started/),
      });
    } finally {
      await prisma.$disconnect();
      await fresh.drop();
    }
  });

  it('"sync now" requests are deduplicated per source until a worker takes them', async () => {
    const sourceId = await source();
    for (let i = 0; i < 5; i += 1) await requestSourceSync(db.prisma, CLI_OPERATOR, sourceId);
    expect(await queuedJobs(sourceId)).toEqual([{ key: syncJobKey(sourceId, "manual"), locked: false }]);
    // Each request is audited (D182), even when it joins the pass already queued.
    expect(await db.prisma.auditEvent.count({ where: { action: "data_source.sync_requested", targetId: sourceId, actorType: "cli" } })).toBe(5);

    const worker = await startWorker({ databaseUrl: db.url, log: quiet, dataDir, pollInterval: 100 });
    try {
      const runs = await finishedRuns(sourceId, 1);
      expect(runs).toHaveLength(1);
      expect(runs[0]).toMatchObject({ trigger: "manual", status: "ok", inserted: 3000 });
      await expect.poll(() => queuedJobs(sourceId)).toEqual([]);
    } finally {
      await worker.stop();
    }
  });

  it("the tick queues sources whose interval has elapsed, and no others", async () => {
    const never = await source(60);
    const due = await source(60);
    const fresh = await source(3600);
    const manual = await source(null);
    await db.prisma.dataSource.updateMany({ where: { id: { in: [due, fresh] } }, data: { syncStatus: "ok", updatedAt: new Date(Date.now() - 120_000) } });
    const busy = await source(60);
    await db.prisma.syncRun.create({ data: { dataSourceId: busy, trigger: "schedule", status: "running" } });

    const added: string[] = [];
    const queued = await enqueueDueSources(db.prisma, async (task, payload, spec) => {
      expect(task).toBe(SYNC_SOURCE_TASK);
      expect(spec.jobKey).toBe(syncJobKey(payload.sourceId, "schedule"));
      added.push(payload.sourceId);
    });
    const mine = new Set([never, due, fresh, manual, busy]);
    expect(queued.filter((id) => mine.has(id)).sort()).toEqual([never, due].sort());
    expect(added.filter((id) => mine.has(id)).sort()).toEqual([never, due].sort());
  });

  it("a scheduled job that finds its source already synced (not due any more) skips the pass", async () => {
    const sourceId = await source(3600);
    await db.prisma.dataSource.update({ where: { id: sourceId }, data: { syncStatus: "ok", updatedAt: new Date() } });
    await db.prisma
      .$executeRaw`SELECT graphile_worker.add_job(${SYNC_SOURCE_TASK}::text, json_build_object('sourceId', ${sourceId}::text, 'trigger', 'schedule'))`;
    const worker = await startWorker({ databaseUrl: db.url, log: quiet, dataDir, pollInterval: 100 });
    try {
      await expect.poll(() => queuedJobs(sourceId), { timeout: 10_000 }).toEqual([]);
      expect(await db.prisma.syncRun.count({ where: { dataSourceId: sourceId } })).toBe(0);
    } finally {
      await worker.stop();
    }
  });

  it("two workers started together on one source never run two passes at once", async () => {
    const sourceId = await source();
    // Six jobs without a key, so both workers (two slots each) take them at once.
    for (let i = 0; i < 6; i += 1) {
      await db.prisma
        .$executeRaw`SELECT graphile_worker.add_job(${SYNC_SOURCE_TASK}::text, json_build_object('sourceId', ${sourceId}::text, 'trigger', 'manual'))`;
    }
    const workers: RunningWorker[] = await Promise.all(
      [1, 2].map(() => startWorker({ databaseUrl: db.url, log: quiet, dataDir, pollInterval: 100, concurrency: 2, batchSize: 200 })),
    );
    let mostLockedAtOnce = 0;
    const watcher = setInterval(() => {
      void queuedJobs(sourceId).then((jobs) => (mostLockedAtOnce = Math.max(mostLockedAtOnce, jobs.filter((job) => job.locked).length)));
    }, 20);
    try {
      const runs = await finishedRuns(sourceId, 6);
      clearInterval(watcher);
      // The workers did try to run passes of this source at the same time...
      expect(mostLockedAtOnce).toBeGreaterThanOrEqual(2);
      // ...and the source lock made them take turns.
      expect(runs).toHaveLength(6);
      expect(runs.every((run) => run.status === "ok")).toBe(true);
      expect(runs.reduce((sum, run) => sum + run.inserted, 0)).toBe(3000);
      // Each run's [start, finish] ends before the next one starts.
      for (let i = 1; i < runs.length; i += 1) expect(runs[i]!.startedAt.getTime()).toBeGreaterThanOrEqual(runs[i - 1]!.finishedAt!.getTime());
    } finally {
      clearInterval(watcher);
      await Promise.all(workers.map((worker) => worker.stop()));
    }
  });

  it("schedules and runs the hourly idempotency cleanup: expired entries go, live ones stay", async () => {
    const org = await db.prisma.organization.create({ data: { name: "Cleanup" } });
    const key = await mintTestKey(db.prisma, { organizationId: org.id, scopes: ["records:write"] });
    const day = 24 * 3600 * 1000;
    const entry = (name: string, expiresAt: Date) => ({
      apiKeyId: key.id,
      key: name,
      fingerprint: "f",
      statusCode: 201,
      responseBody: "{}",
      createdAt: new Date(expiresAt.getTime() - day),
      expiresAt,
    });
    await db.prisma.idempotencyEntry.createMany({ data: [entry("old", new Date(Date.now() - 60_000)), entry("live", new Date(Date.now() + day))] });

    const worker = await startWorker({ databaseUrl: db.url, log: quiet, dataDir, pollInterval: 100 });
    try {
      const crontabs = await db.prisma.$queryRaw<{ identifier: string }[]>`SELECT identifier FROM graphile_worker._private_known_crontabs`;
      expect(crontabs.map((c) => c.identifier)).toContain(IDEMPOTENCY_CLEANUP_TASK);
      await db.prisma.$executeRaw`SELECT graphile_worker.add_job(${IDEMPOTENCY_CLEANUP_TASK}::text)`;
      const deadline = Date.now() + 15_000;
      while ((await db.prisma.idempotencyEntry.count({ where: { key: "old" } })) > 0 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect((await db.prisma.idempotencyEntry.findMany({ select: { key: true } })).map((e) => e.key)).toEqual(["live"]);
    } finally {
      await worker.stop();
    }
  });
});
