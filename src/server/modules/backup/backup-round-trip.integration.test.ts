import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadAuthSecret } from "@/server/auth/secret";
import { createPrismaClient } from "@/server/db/client";
import { applyMigrations, readMigrations } from "@/server/db/migrations";
import { createBackup } from "./create-backup";
import { restoreBackup } from "./restore-backup";
import { CLI_OPERATOR } from "@/server/modules/access/acting-principal";
import { createManagedSource } from "@/server/modules/data-sources/create-managed-source";
import { createSecretBox, type SecretBox } from "@/server/modules/data-sources/credentials/secret-box";
import { loadEncryptionKey } from "@/server/modules/data-sources/credentials/encryption-key";
import { runSyncPass } from "@/server/modules/data-sources/sync/run-sync-pass";
import { useCustomerDatabase } from "@/server/modules/data-sources/testing/customer-database";
import { startFakeCrm, type FakeCrm } from "@/server/modules/data-sources/testing/fake-crm-server";
import { createTestOrganization } from "@/server/modules/data-sources/testing/source-fixtures";
import { createForm } from "@/server/modules/forms/create-form";
import { createRecord } from "@/server/modules/records/create-record";
import { ensurePartition } from "@/server/modules/request-log/partitions";
import { mintTestKey } from "@/test/api-client";
import { startApiProcess } from "@/test/api-process";
import { cliProcessRunner, cliRunner } from "@/test/cli-process";
import { createTestDatabase, useTestDatabase } from "@/test/db";
import { createPostgres15Database, startPostgres15 } from "@/test/postgres15";
import { digests, ownedDatabase } from "./testing/compare-databases";
import { createTestSource, insertRows } from "@/test/rows";

// Issue 42's round trip: an instance on the embedded PostgreSQL 17 with data of every kind is
// backed up with the CLI and restored into a fresh database on PostgreSQL 15; a second instance
// on the restored database answers as the first (tokens, cursors, pages), its credentials open.

const db = useTestDatabase();
const customer = useCustomerDatabase();
const PASSPHRASE = "correct horse battery staple";
let crm: FakeCrm;
let pg15: Awaited<ReturnType<typeof startPostgres15>>;
const dirs = { source: "", target: "", archives: "" };
const { cli } = cliRunner(() => ({ GROUNDWORK_BACKUP_PASSPHRASE: PASSPHRASE }));
// The passphrase piped on the real process's stdin (D564), no variable set.
const spawned = cliProcessRunner(() => ({ GROUNDWORK_BACKUP_PASSPHRASE: "" }));

beforeAll(async () => {
  crm = await startFakeCrm();
  pg15 = await startPostgres15();
  for (const key of Object.keys(dirs) as (keyof typeof dirs)[]) dirs[key] = mkdtempSync(path.join(os.tmpdir(), `gw-backup-${key}-`));
});
afterAll(async () => {
  await crm?.close();
  await pg15?.stop();
  for (const dir of Object.values(dirs)) if (dir) rmSync(dir, { recursive: true, force: true });
});

async function fill(secrets: SecretBox) {
  const organizationId = await createTestOrganization(db.prisma);
  await customer.query("CREATE TABLE public.people (id int PRIMARY KEY, name text, n int)");
  await customer.query("INSERT INTO public.people SELECT g, 'person ' || g, g FROM generate_series(1, 300) g");
  const table = await createManagedSource(db.prisma, secrets, CLI_OPERATOR, {
    kind: "postgres_table",
    organizationId,
    name: "People",
    syncIntervalSeconds: null,
    config: { table: "public.people", keyColumn: "id", orderColumn: "id", columns: null },
    credentials: { url: customer.url },
  });
  const sync = (id: string) => runSyncPass({ db: db.prisma, secrets }, id, { trigger: "test", timeoutMs: 10_000 });
  expect((await sync(table.id)).status).toBe("ok");
  // Row versions and tombstones: a second pass that sees changes and deletions.
  await customer.query("UPDATE public.people SET name = 'renamed' WHERE id <= 10");
  await customer.query("DELETE FROM public.people WHERE id > 295");
  expect(await sync(table.id)).toMatchObject({ status: "ok", counts: { updated: 10, tombstoned: 5 } });
  crm.setRecords(
    "Account",
    ["Name"],
    Array.from({ length: 120 }, (_, i) => ({ Id: `001${String(i).padStart(12, "0")}`, Name: `Account ${i}` })),
  );
  const crmSource = await createManagedSource(db.prisma, secrets, CLI_OPERATOR, {
    kind: "crm_object",
    organizationId,
    name: "Accounts",
    config: { instanceUrl: crm.url, object: "Account", fields: null },
    credentials: { clientId: crm.clientId, clientSecret: crm.clientSecret },
  });
  expect((await sync(crmSource.id)).status).toBe("ok");
  const csv = await createTestSource(db.prisma, organizationId, "Uploaded");
  const at = new Date("2026-11-20T10:00:00.123Z");
  await insertRows(db.prisma, csv, [
    { externalId: "a", displayOrder: 1, createdAt: at, updatedAt: at },
    { externalId: "b", displayOrder: 2, createdAt: at, updatedAt: at, deletedAt: at },
  ]);
  const form = await createForm(db.prisma, CLI_OPERATOR, organizationId, "Survey");
  await createRecord(db.prisma, { organizationId, formId: form.id, createdBy: "device-1", fieldValues: { answer: 42 } });
  const key = await mintTestKey(db.prisma, { organizationId, scopes: ["*:*"], rateLimit: 1_000_000 });
  // The raw request log (daily partitions made by the writer, not the migrations): two days of it.
  for (const day of [new Date(Date.now() - 86_400_000), new Date()]) {
    await ensurePartition(db.prisma, day);
    await db.prisma.$executeRawUnsafe(
      `INSERT INTO request_log (request_id, occurred_at, organization_id, method, route, status, status_class, duration_ms, response_bytes)
       VALUES ($1, $2::timestamptz, $3, 'GET', '/organizations/{id}', 200, '2xx', 1.5, 10)`,
      `req_${day.getTime()}`,
      day.toISOString(),
      organizationId,
    );
  }
  return { organizationId, tableId: table.id, crmId: crmSource.id, token: key.token };
}

async function getJson(url: string, token: string): Promise<{ status: number; body: { data: unknown; meta: { next_cursor: string | null } } }> {
  const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
  return { status: res.status, body: (await res.json()) as { data: unknown; meta: { next_cursor: string | null } } };
}

describe("backup create → restore on another PostgreSQL version", () => {
  it("gives back the same instance: rows, ids and times, tokens, cursors, credentials", async () => {
    const secrets = createSecretBox(await loadEncryptionKey(dirs.source));
    await loadAuthSecret(dirs.source, undefined);
    const filled = await fill(secrets);
    const rowsPath = `/organizations/${filled.organizationId}/data-sources/${filled.tableId}/rows?limit=40`;

    const first = await startApiProcess({ DATABASE_URL: db.url, GROUNDWORK_DATA_DIR: dirs.source });
    const pagesBefore: unknown[] = [];
    let cursorBeforeBackup: string | null = null;
    try {
      let next: string | null = rowsPath;
      while (next) {
        const page = await getJson(`${first.baseUrl}${next}`, filled.token);
        expect(page.status).toBe(200);
        pagesBefore.push(page.body.data);
        cursorBeforeBackup ??= page.body.meta.next_cursor;
        next = page.body.meta.next_cursor ? `${rowsPath}&cursor=${encodeURIComponent(page.body.meta.next_cursor)}` : null;
      }
    } finally {
      await first.stop();
    }
    expect(pagesBefore.length).toBe(8); // 300 rows (5 of them tombstones, not listed) by 40
    expect(cursorBeforeBackup).not.toBeNull();

    const archive = path.join(dirs.archives, "instance.gwbackup");
    const created = await cli(["backup", "create", "--to", archive, "--json"], { DATABASE_URL: db.url, GROUNDWORK_DATA_DIR: dirs.source });
    expect(created.code, created.stderr).toBe(0);
    const summary = JSON.parse(created.stdout) as { rows: number; secrets: string[]; per_table: { name: string; rows: number }[] };
    expect(summary.secrets).toEqual(["encryption_key", "cursor_key", "session_secret"]);
    expect(summary.per_table.filter((table) => table.name.startsWith("request_log_p")).map((table) => table.rows)).toEqual([1, 1]);

    const verified = await cli(["backup", "verify", archive, "--json"]);
    expect(verified.code, verified.stderr).toBe(0);
    expect(JSON.parse(verified.stdout)).toMatchObject({ ok: true, rows: summary.rows });
    const piped = await spawned.cli(["backup", "verify", archive, "--json"], {}, `${PASSPHRASE}\n`);
    expect(piped.code, piped.stderr).toBe(0);
    expect(JSON.parse(piped.stdout)).toMatchObject({ ok: true, rows: summary.rows });
    const wrong = await cli(["backup", "verify", archive], { GROUNDWORK_BACKUP_PASSPHRASE: "not the passphrase" });
    expect(wrong).toMatchObject({ code: 1, stderr: expect.stringMatching(/^error: the archive's secrets do not open with this passphrase/) });

    const target = await createPostgres15Database(pg15.adminUrl);
    try {
      const restored = await cli(["backup", "restore", archive, "--json"], { DATABASE_URL: target.url, GROUNDWORK_DATA_DIR: dirs.target });
      expect(restored.code, restored.stderr).toBe(0);
      expect(JSON.parse(restored.stdout)).toMatchObject({
        rows: summary.rows,
        migrated_forward: [],
        secrets: { encryption_key: "written", cursor_key: "written", session_secret: "written" },
      });
      const again = await cli(["backup", "restore", archive], { DATABASE_URL: target.url, GROUNDWORK_DATA_DIR: dirs.target });
      expect(again).toMatchObject({ code: 1, stderr: expect.stringMatching(/^error: the database already holds \d+ of the service's tables .*--force/) });

      // Every row of every table, ids and timestamps included; the migration history as it was.
      const expected = await digests(db.url);
      expect(await digests(target.url)).toEqual(expected);
      // A role that is not a superuser (a managed Postgres) loads in foreign-key order instead.
      const owned = await ownedDatabase(pg15.adminUrl);
      try {
        const asOwner = await restoreBackup({ databaseUrl: owned.url, file: archive, passphrase: PASSPHRASE });
        expect(asOwner.loadMode).toBe("ordered");
        expect(await digests(owned.url)).toEqual(expected);
      } finally {
        await owned.drop();
      }

      const second = await startApiProcess({ DATABASE_URL: target.url, GROUNDWORK_DATA_DIR: dirs.target });
      try {
        // The token authenticates; the cursor handed out before the backup continues the walk.
        const continued = await getJson(`${second.baseUrl}${rowsPath}&cursor=${encodeURIComponent(cursorBeforeBackup ?? "")}`, filled.token);
        expect(continued.status).toBe(200);
        expect(continued.body.data).toEqual(pagesBefore[1]);
        const firstPage = await getJson(`${second.baseUrl}${rowsPath}`, filled.token);
        expect(firstPage.body.data).toEqual(pagesBefore[0]);
      } finally {
        await second.stop();
      }

      // The connector credentials open with the restored key: both managed sources sync (the
      // table's pass writes row versions: their sequence was put back past the restored ids).
      await customer.query("UPDATE public.people SET n = n + 1 WHERE id <= 3");
      const restoredDb = createPrismaClient(target.url);
      try {
        const restoredSecrets = createSecretBox(await loadEncryptionKey(dirs.target));
        for (const id of [filled.tableId, filled.crmId]) {
          const outcome = await runSyncPass({ db: restoredDb, secrets: restoredSecrets }, id, { trigger: "test", timeoutMs: 10_000 });
          expect(outcome, outcome.error ?? "").toMatchObject({ status: "ok" });
        }
        const versionsBefore = await db.prisma.dataSourceRowVersion.count({ where: { dataSourceId: filled.tableId } });
        expect(await restoredDb.dataSourceRowVersion.count({ where: { dataSourceId: filled.tableId } })).toBe(versionsBefore + 3);
        expect(await restoredDb.auditEvent.count({ where: { action: "backup.restored" } })).toBe(1);
      } finally {
        await restoredDb.$disconnect();
      }
    } finally {
      await target.drop();
    }
  }, 240_000); // two databases, three syncs and two CLI processes: minutes on a loaded 2-core machine
});

describe("an archive made by older code", () => {
  it("is restored at its own version, then migrated forward to this code's", async () => {
    const names = (await readMigrations("prisma/migrations")).map((migration) => migration.name);
    const last = names.at(-1) ?? "";
    const older = await createTestDatabase({ migrated: false });
    const target = await createPostgres15Database(pg15.adminUrl);
    try {
      await applyMigrations(older.url, { only: (name) => name !== last });
      const olderDb = createPrismaClient(older.url);
      const organizationId = await createTestOrganization(olderDb).finally(() => olderDb.$disconnect());
      const archive = path.join(dirs.archives, "older.gwbackup");
      const made = await createBackup({ databaseUrl: older.url, to: archive, passphrase: PASSPHRASE, secrets: {} });
      expect(made.migration).toBe(names.at(-2));
      const restored = await restoreBackup({ databaseUrl: target.url, file: archive, passphrase: PASSPHRASE });
      expect(restored).toMatchObject({ migration: names.at(-2), migratedForward: [last], loadMode: "replica" });
      const restoredDb = createPrismaClient(target.url);
      try {
        expect(await restoredDb.organization.findUnique({ where: { id: organizationId }, select: { id: true } })).toEqual({ id: organizationId });
        const history = await restoredDb.$queryRawUnsafe<{ migration_name: string }[]>("SELECT migration_name FROM _prisma_migrations ORDER BY migration_name");
        expect(history.map((row) => row.migration_name)).toEqual(names);
      } finally {
        await restoredDb.$disconnect();
      }
    } finally {
      await target.drop();
      await older.drop();
    }
  }, 240_000);
});
