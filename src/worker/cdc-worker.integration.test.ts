import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useTestDatabase } from "@/test/db";
import { CLI_OPERATOR } from "@/server/modules/access/acting-principal";
import { loadEncryptionKey } from "@/server/modules/data-sources/credentials/encryption-key";
import { createSecretBox, type SecretBox } from "@/server/modules/data-sources/credentials/secret-box";
import { pauseDataSource, resumeDataSource } from "@/server/modules/data-sources/manage/pause-source";
import { createTableSource, storedRows } from "@/server/modules/data-sources/testing/source-fixtures";
import { useLogicalCustomer, waitFor } from "@/server/modules/data-sources/capture/cdc/testing/logical-customer";
import { startWorker } from "./start-worker";

const db = useTestDatabase();
const customer = useLogicalCustomer();
let dataDir: string;
let secrets: SecretBox;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), "gw-cdc-worker-"));
  secrets = createSecretBox(await loadEncryptionKey(dataDir));
  await customer.query(`CREATE TABLE public.orders (id int PRIMARY KEY, total numeric)`);
  await customer.query(`INSERT INTO public.orders SELECT g, g * 1.5 FROM generate_series(1, 100) g`);
  await customer.query(`CREATE PUBLICATION groundwork FOR TABLE public.orders`);
});
afterAll(() => rm(dataDir, { recursive: true, force: true }));

const totalOf = async (sourceId: string, key: string) => ((await storedRows(db.prisma, sourceId)).get(key)?.data as { total?: string } | undefined)?.total;
const slotActive = async () => (await customer.slots()).some((slot) => slot.active);

describe("the worker's change-capture consumers", () => {
  it("streams a CDC source, stops streaming while it is paused, and drains on stop", async () => {
    const sourceId = await createTableSource(db.prisma, { url: customer.url, table: "public.orders", key: "id" }, secrets);
    await db.prisma.dataSource.update({ where: { id: sourceId }, data: { captureMode: "cdc" } });
    const logs: string[] = [];
    const worker = await startWorker({ databaseUrl: db.url, dataDir, log: (line) => logs.push(line), cdcPollMs: 100, timeoutMs: 5_000 });
    try {
      await waitFor(async () => (await storedRows(db.prisma, sourceId)).size === 100 && (await slotActive()), "the baseline and the stream");
      await customer.query(`UPDATE public.orders SET total = 0 WHERE id = 7`);
      await waitFor(async () => (await totalOf(sourceId, "7")) === "0", "the streamed update");

      await pauseDataSource(db.prisma, CLI_OPERATOR, sourceId);
      await waitFor(async () => !(await slotActive()), "the consumer to stop");
      await customer.query(`UPDATE public.orders SET total = 1 WHERE id = 8`);
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(await totalOf(sourceId, "8")).toBe("12.0");

      await resumeDataSource(db.prisma, CLI_OPERATOR, sourceId);
      // Resumed from the slot: the change made while paused arrives, no full compare needed.
      await waitFor(async () => (await totalOf(sourceId, "8")) === "1", "the change made while paused");
      expect(await db.prisma.syncRun.count({ where: { dataSourceId: sourceId, trigger: "cdc_full_compare" } })).toBe(1);
    } finally {
      await worker.stop();
    }
    expect(await slotActive()).toBe(false);
    expect(logs.some((line) => line.includes("change capture consumer started"))).toBe(true);
  });
});
