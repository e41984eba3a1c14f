import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { createPrismaClient } from "@/server/db/client";
import type { PrismaClient } from "@/server/db/types";
import { createSecretBox } from "@/server/modules/data-sources/credentials/secret-box";
import { loadEncryptionKey } from "@/server/modules/data-sources/credentials/encryption-key";
import { runSyncPass } from "@/server/modules/data-sources/sync/run-sync-pass";
import { startApiProcess } from "@/test/api-process";
import { createPostgres15Database, startPostgres15 } from "@/test/postgres15";
import { openSeededDatabases } from "./seeded-databases";

/**
 * Issue 42's round trip by hand, at BENCH_ROWS (1 000 000): the bench's seeded instance on the
 * embedded PostgreSQL 17, `backup create` and `backup restore` through the CLI into PostgreSQL 15,
 * then a second instance on the restored database: the first page and a cursor handed out before
 * the backup, row, tombstone, key and audit counts, and a sync with the restored key.
 * `GROUNDWORK_ALLOW_PRIVATE_TARGETS=on npx tsx bench/backup-by-hand.ts`
 */
const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);
const log = (message: string) => process.stdout.write(`${new Date().toISOString().slice(11, 19)} ${message}\n`);
type Page = { data: unknown[]; meta: { next_cursor: string | null } };

const seeded = await openSeededDatabases("gw_hand", ROWS);
const pg15 = await startPostgres15();
const target = await createPostgres15Database(pg15.adminUrl);
const dirA = mkdtempSync(path.join(os.tmpdir(), "gw-hand-a-"));
const dirB = mkdtempSync(path.join(os.tmpdir(), "gw-hand-b-"));
const file = path.join(dirA, "hand.gwbackup");
try {
  const { fixture } = seeded;
  log(`seeded ${ROWS} rows`);
  const rows = `/organizations/${fixture.organizationId}/data-sources/${fixture.rowsSourceId}/rows?limit=100`;
  const get = async (base: string, query: string) =>
    (await (await fetch(`${base}${query}`, { headers: { authorization: `Bearer ${fixture.token}` } })).json()) as Page;
  const first = await startApiProcess({ DATABASE_URL: seeded.appUrl, GROUNDWORK_DATA_DIR: dirA });
  const p1 = await get(first.baseUrl, rows);
  const p2 = await get(first.baseUrl, `${rows}&cursor=${encodeURIComponent(p1.meta.next_cursor ?? "")}`);
  await first.stop();
  const cli = (args: string[], env: Record<string, string>) =>
    execFileSync(process.execPath, ["--import", "tsx", "src/cli/main.ts", ...args, "--json"], {
      env: { ...process.env, GROUNDWORK_BACKUP_PASSPHRASE: "hand passphrase", ...env },
      encoding: "utf8",
    });
  let started = performance.now();
  const created = JSON.parse(
    cli(["backup", "create", "--to", file], { DATABASE_URL: seeded.appUrl, GROUNDWORK_DATA_DIR: dirA, GROUNDWORK_ENCRYPTION_KEY: fixture.encryptionKeyHex }),
  ) as { bytes: number; rows: number; secrets: string[] };
  log(
    `backup create: ${((performance.now() - started) / 1000).toFixed(1)} s, ${(created.bytes / 2 ** 20).toFixed(1)} MB, ${created.rows} rows, secrets ${created.secrets.join(", ")}`,
  );
  started = performance.now();
  const restored = JSON.parse(cli(["backup", "restore", file], { DATABASE_URL: target.url, GROUNDWORK_DATA_DIR: dirB })) as { rows: number; secrets: unknown };
  log(
    `backup restore into PostgreSQL 15: ${((performance.now() - started) / 1000).toFixed(1)} s, ${restored.rows} rows, secrets ${JSON.stringify(restored.secrets)}`,
  );
  const second = await startApiProcess({ DATABASE_URL: target.url, GROUNDWORK_DATA_DIR: dirB });
  const q1 = await get(second.baseUrl, rows);
  const q2 = await get(second.baseUrl, `${rows}&cursor=${encodeURIComponent(p1.meta.next_cursor ?? "")}`);
  await second.stop();
  log(
    `first page equal: ${JSON.stringify(q1.data) === JSON.stringify(p1.data)}; the pre-backup cursor's page equal: ${JSON.stringify(q2.data) === JSON.stringify(p2.data)}`,
  );
  const source = createPrismaClient(seeded.appUrl);
  const copy = createPrismaClient(target.url);
  const counts = async (db: PrismaClient) => [
    await db.dataSourceRow.count(),
    await db.dataSourceRow.count({ where: { deletedAt: { not: null } } }),
    await db.apiKey.count(),
    await db.auditEvent.count({ where: { action: { not: { startsWith: "backup." } } } }),
  ];
  log(`rows, tombstones, keys, audit events: source ${(await counts(source)).join(", ")}; restored ${(await counts(copy)).join(", ")}`);
  const outcome = await runSyncPass({ db: copy, secrets: createSecretBox(await loadEncryptionKey(dirB)) }, fixture.syncSourceId, {
    trigger: "test",
    timeoutMs: 600_000,
  });
  log(`a pass of the Postgres-table source on the restored instance, with the restored key: ${outcome.status}${outcome.error ? ` (${outcome.error})` : ""}`);
  await source.$disconnect();
  await copy.$disconnect();
} finally {
  await target.drop().catch(() => undefined);
  await pg15.stop();
  await seeded.close();
  for (const dir of [dirA, dirB]) rmSync(dir, { recursive: true, force: true });
}
process.exit(0);
