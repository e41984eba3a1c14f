import { CLI_OPERATOR } from "@/server/modules/access/acting-principal";
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useTestDatabase } from "@/test/db";
import { loadEncryptionKey } from "@/server/modules/data-sources/credentials/encryption-key";
import { createSecretBox } from "@/server/modules/data-sources/credentials/secret-box";
import { runSyncPass } from "@/server/modules/data-sources/sync/run-sync-pass";
import { useCustomerDatabase } from "@/server/modules/data-sources/testing/customer-database";
import { createTableSource } from "@/server/modules/data-sources/testing/source-fixtures";
import { requestSourceSync } from "@/server/modules/data-sources/sync-queue";
import { startWorker } from "./start-worker";
import { relayToConsole } from "@/test/relay-output";

const db = useTestDatabase();
const customer = useCustomerDatabase();
const repoRoot = fileURLToPath(new URL("../..", import.meta.url));
const ROWS = 50_000;
let dataDir: string;
let child: ChildProcess | undefined;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), "gw-kill-"));
  await customer.query(`CREATE TABLE public.customers (id int PRIMARY KEY, name text NOT NULL, score int NOT NULL)`);
  await customer.query(`INSERT INTO public.customers SELECT g, 'customer ' || g, 0 FROM generate_series(1, ${ROWS}) g`);
});
afterAll(async () => {
  child?.kill("SIGKILL");
  await rm(dataDir, { recursive: true, force: true });
});

/** A worker in a child process (node + tsx, no npx in between: the pid we kill is the worker's). */
function spawnWorker(): { process: ChildProcess; lines: AsyncIterableIterator<string> } {
  const worker = spawn(process.execPath, ["--import", "tsx", path.join(repoRoot, "src/worker/testing/worker-child.ts"), db.url, dataDir, "500"], {
    cwd: repoRoot,
    stdio: ["ignore", "pipe", "pipe"],
  });
  relayToConsole(worker.stderr);
  return { process: worker, lines: createInterface({ input: worker.stdout! })[Symbol.asyncIterator]() };
}

async function waitForLine(lines: AsyncIterableIterator<string>, predicate: (line: string) => boolean): Promise<string> {
  for (;;) {
    const next = await lines.next();
    if (next.done) throw new Error("the worker exited before printing the expected line");
    if (predicate(next.value)) return next.value;
  }
}

/** A fingerprint of every stored row of the source, tombstones included. */
async function fingerprint(sourceId: string): Promise<string> {
  const rows = await db.prisma.$queryRaw<{ digest: string; n: number }[]>`
    SELECT md5(string_agg(external_id || ':' || data_hash || ':' || updated_at::text || ':' || coalesce(deleted_at::text, '-'), ',' ORDER BY external_id)) AS digest,
           count(*)::int AS n
      FROM data_source_rows WHERE data_source_id = ${sourceId}`;
  return `${rows[0]!.n}/${rows[0]!.digest}`;
}

describe("a worker killed with SIGKILL in the middle of a pass", () => {
  it("leaves no partial pass visible; after a restart the next pass completes", { timeout: 180_000 }, async () => {
    const secrets = createSecretBox(await loadEncryptionKey(dataDir));
    const sourceId = await createTableSource(db.prisma, { url: customer.url, table: "public.customers", key: "id" }, secrets);
    // A first, complete pass; then every row changes, a few go and a few come, so the next
    // pass rewrites the whole source.
    expect(await runSyncPass({ db: db.prisma, secrets }, sourceId, { trigger: "test" })).toMatchObject({ status: "ok", counts: { inserted: ROWS } });
    await customer.query(`UPDATE public.customers SET score = score + 1`);
    await customer.query(`DELETE FROM public.customers WHERE id <= 100`);
    await customer.query(`INSERT INTO public.customers SELECT g, 'late ' || g, 0 FROM generate_series(${ROWS + 1}, ${ROWS + 100}) g`);
    const rowsBefore = await fingerprint(sourceId);
    const sourceBefore = await db.prisma.dataSource.findUniqueOrThrow({ where: { id: sourceId } });

    const worker = spawnWorker();
    child = worker.process;
    await waitForLine(worker.lines, (line) => line === "ready");
    await requestSourceSync(db.prisma, CLI_OPERATOR, sourceId);
    // Well into the pass: 20 000 of 50 000 rows written inside its transaction.
    await waitForLine(worker.lines, (line) => line.startsWith(`progress ${sourceId} `) && Number(line.split(" ")[2]) >= 20_000);
    const exited = new Promise((resolve) => worker.process.once("exit", resolve));
    worker.process.kill("SIGKILL");
    await exited;
    child = undefined;

    // It really was cut mid-pass: its run never finished...
    const interrupted = await db.prisma.syncRun.findFirstOrThrow({ where: { dataSourceId: sourceId, trigger: "manual" } });
    expect(interrupted.status).toBe("running");
    // ...and nothing of it is visible: rows, status and versions are exactly as before.
    expect(await fingerprint(sourceId)).toBe(rowsBefore);
    expect(await db.prisma.dataSource.findUniqueOrThrow({ where: { id: sourceId } })).toEqual(sourceBefore);

    // Another worker takes the dead one's job back by itself within seconds (D401), where
    // graphile-worker alone would leave it locked for 4 hours: nobody asks again.
    const restarted = await startWorker({ databaseUrl: db.url, log: () => undefined, dataDir, pollInterval: 100 });
    try {
      await expect
        .poll(() => db.prisma.syncRun.count({ where: { dataSourceId: sourceId, trigger: "manual", status: "ok" } }), { timeout: 120_000, interval: 250 })
        .toBe(1);
    } finally {
      await restarted.stop();
    }
    const run = await db.prisma.syncRun.findFirstOrThrow({ where: { dataSourceId: sourceId, trigger: "manual", status: "ok" } });
    expect(run).toMatchObject({ inserted: 100, updated: ROWS - 100, tombstoned: 100 });
    expect(await db.prisma.syncRun.findUniqueOrThrow({ where: { id: interrupted.id } })).toMatchObject({
      status: "error",
      error: expect.stringMatching(/^Interrupted/),
    });
    expect(await db.prisma.dataSourceRow.count({ where: { dataSourceId: sourceId, deletedAt: null } })).toBe(ROWS);
  });
});
