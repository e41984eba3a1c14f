import { existsSync, readFileSync } from "node:fs";
import { cp, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { mintApiKey } from "@/server/modules/api-keys/mint-key";
import { CLI_OPERATOR } from "@/server/modules/access/acting-principal";
import { replaceCsvRows } from "@/server/modules/data-sources/csv/replace-csv-rows";
import { startApiProcess } from "@/test/api-process";
import { createTestDatabase } from "@/test/db";
import { withClient } from "./admin";
import { createPrismaClient } from "./client";
import { applyMigrations, DEFAULT_MIGRATIONS_DIR } from "./migrations";

// An instance of the previous release (prisma/releases.json), filled with data of every kind, is
// upgraded by the current code: every row survives (count and checksum per table, over the columns
// the table had before), and the API answers the same pages (D394).
// NOTE: the fill and the "before" pages use the current code on the older schema; that holds while
// the tables they touch are unchanged by the migrations since (a migration that changes them
// must say how, and this test would tell).
const releases = JSON.parse(readFileSync("prisma/releases.json", "utf8")) as Record<string, { commit: string; lastMigration: string } | string>;
const previous = Object.entries(releases).filter((entry): entry is [string, { commit: string; lastMigration: string }] => typeof entry[1] === "object").at(-1)!;
const D345 = "20261128130000_tombstone_indexes";

const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
});

/** The migrations directory of an older release: its migrations only, each with the text it shipped. */
async function releaseMigrations(version: string, last: string): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), `gw-release-${version}-`));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  for (const name of (await readdir(DEFAULT_MIGRATIONS_DIR)).filter((entry) => entry <= last || entry === "migration_lock.toml")) {
    await cp(path.join(DEFAULT_MIGRATIONS_DIR, name), path.join(dir, name), { recursive: true });
    const released = path.join(import.meta.dirname, "__fixtures__", `${name}.${version}.sql`);
    if (existsSync(released)) await writeFile(path.join(dir, name, "migration.sql"), readFileSync(released, "utf8"));
  }
  return dir;
}

const T = (minutes: number) => new Date(Date.UTC(2026, 10, 20, 12, minutes));

/** Sources of all three kinds with tombstones and row versions, records, keys and their audit. */
async function fill(url: string): Promise<{ organizationId: string; sourceId: string; formId: string; token: string }> {
  const db = createPrismaClient(url);
  try {
    const organization = await db.organization.create({ data: { name: "Upgraded" } });
    await db.user.create({ data: { email: "owner@upgrade.test", passwordHash: "x", isInstanceOwner: true } });
    const key = await mintApiKey(db, CLI_OPERATOR, { name: "before", scopes: "*:*", organizationId: organization.id });
    await mintApiKey(db, CLI_OPERATOR, { name: "instance", scopes: "*:*", organizationId: null });
    const csv = await db.dataSource.create({ data: { organizationId: organization.id, name: "Prices", kind: "csv", config: { keyColumn: "sku" } } });
    const lines = (from: number, to: number, price: string) => Array.from({ length: to - from }, (_, i) => `S${from + i},${price}`).join("\n");
    await replaceCsvRows(db, CLI_OPERATOR, csv.id, `sku,price\n${lines(0, 300, "1")}\n`);
    // Second upload: 100 rows gone (tombstones), 100 changed (row versions), 50 new.
    await replaceCsvRows(db, CLI_OPERATOR, csv.id, `sku,price\n${lines(100, 200, "1")}\n${lines(200, 300, "2")}\n${lines(300, 350, "1")}\n`);
    for (const kind of ["postgres_table", "crm_object"] as const) {
      const source = await db.dataSource.create({
        data: { organizationId: organization.id, name: kind, kind, config: { table: "public.t", keyColumn: "id" }, credentialsEncrypted: "v1:opaque", columns: ["id", "v"] },
      });
      await db.dataSourceRow.createMany({
        data: Array.from({ length: 200 }, (_, i) => ({
          dataSourceId: source.id, externalId: String(i), data: { id: i, v: `v${i}` }, dataHash: `h${i}`, displayOrder: i,
          createdAt: T(0), updatedAt: T(i % 50), deletedAt: i % 10 === 0 ? T(55) : null,
        })),
      });
      await db.dataSourceRowVersion.createMany({
        data: Array.from({ length: 20 }, (_, i) => ({
          dataSourceId: source.id, rowId: `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`, externalId: String(i), data: { id: i, v: "old" },
          displayOrder: i, createdAt: T(0), updatedAt: T(1), supersededAt: T(2),
        })),
      });
      await db.syncRun.create({ data: { dataSourceId: source.id, trigger: "schedule", status: "ok", startedAt: T(3), finishedAt: T(4), inserted: 200 } });
    }
    const form = await db.form.create({ data: { organizationId: organization.id, name: "Visits" } });
    await db.record.createMany({
      data: Array.from({ length: 120 }, (_, i) => ({ organizationId: organization.id, formId: form.id, createdBy: `u${i % 7}`, fieldValues: { n: i }, createdAt: T(i % 60) })),
    });
    await db.auditEvent.create({ data: { action: "test.before_upgrade", actorType: "cli", targetType: "organization", targetId: organization.id, createdAt: T(5) } });
    return { organizationId: organization.id, sourceId: csv.id, formId: form.id, token: key.token };
  } finally {
    await db.$disconnect();
  }
}

/** Row count and checksum of every table (partitions too), over the columns `columns` names. */
async function snapshot(url: string, columns?: Map<string, string[]>) {
  return withClient(url, async (client) => {
    const { rows } = await client.query<{ table_name: string; column_name: string }>(
      `SELECT c.table_name, c.column_name FROM information_schema.columns c
         JOIN information_schema.tables t USING (table_schema, table_name)
        WHERE c.table_schema = 'public' AND t.table_type = 'BASE TABLE' AND c.table_name <> '_prisma_migrations'
        ORDER BY c.table_name, c.ordinal_position`,
    );
    const own = new Map<string, string[]>();
    for (const row of rows) own.set(row.table_name, [...(own.get(row.table_name) ?? []), row.column_name]);
    const result: Record<string, { rows: number; checksum: string }> = {};
    for (const [table, names] of columns ?? own) {
      const list = names.map((name) => `"${name}"`).join(", ");
      const { rows: [figures] } = await client.query<{ rows: number; checksum: string }>(
        `SELECT count(*)::int AS rows, coalesce(md5(string_agg(r::text, E'\\n' ORDER BY r::text)), '') AS checksum
           FROM (SELECT ROW(${list}) AS r FROM "${table}") AS t`,
      );
      result[table] = figures!;
    }
    return { columns: own, tables: result };
  });
}

async function pages(url: string, target: { organizationId: string; sourceId: string; formId: string; token: string }, write: boolean) {
  const api = await startApiProcess({ DATABASE_URL: url, GROUNDWORK_REQUEST_LOG: "on" }, ["--request-log"]);
  try {
    const call = async (method: string, route: string, body?: unknown) => {
      const response = await fetch(`${api.baseUrl}${route}`, {
        method,
        headers: { authorization: `Bearer ${target.token}`, ...(body ? { "content-type": "application/json" } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
      const json = (await response.json()) as Record<string, unknown>;
      expect(response.status, JSON.stringify(json)).toBeLessThan(300);
      delete json.request_id;
      return json;
    };
    if (write) {
      for (let i = 0; i < 3; i++) await call("POST", `/organizations/${target.organizationId}/forms/${target.formId}/records`, { created_by: "api", field_values: { i } });
    }
    const rows = await call("GET", `/organizations/${target.organizationId}/data-sources/${target.sourceId}/rows?include_deleted=true&limit=100`);
    const records = await call("GET", `/organizations/${target.organizationId}/forms/${target.formId}/records?limit=50`);
    if (write) {
      // The request log is written behind the answers, in batches: wait for these five requests.
      const deadline = Date.now() + 60_000;
      const logged = () => withClient(url, async (client) => (await client.query<{ n: number }>("SELECT count(*)::int AS n FROM request_log")).rows[0]!.n);
      while ((await logged()) < 5 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 200));
    }
    return { rows, records };
  } finally {
    await api.stop();
  }
}

describe(`an upgrade from ${previous[0]} (${previous[1].commit}) to the current code`, () => {
  it.each([
    [`${previous[0]}, its last migration applied`, previous[1].lastMigration],
    ["an instance that has not applied D345 yet", "20261126081000_source_live_rows"],
  ])("from %s: every row survives and the API answers the same pages", async (_from, last) => {
    const database = await createTestDatabase({ migrated: false });
    cleanups.push(database.drop);
    await applyMigrations(database.url, { migrationsDir: await releaseMigrations(previous[0], last) });
    const target = await fill(database.url);
    const before = await pages(database.url, target, true);
    expect([(before.rows.data as unknown[]).length, (before.records.data as unknown[]).length]).toEqual([100, 50]);
    const old = await snapshot(database.url);
    expect(old.tables.request_log?.rows).toBeGreaterThanOrEqual(5);
    expect(old.tables.audit_events?.rows).toBeGreaterThan(3); // key.created among them

    const { applied } = await applyMigrations(database.url);
    const current = (await readdir(DEFAULT_MIGRATIONS_DIR)).filter((name) => name > last && name !== "migration_lock.toml");
    expect(applied).toEqual(current);
    if (last < D345) expect(applied).toContain(D345);

    expect((await snapshot(database.url, old.columns)).tables).toEqual(old.tables);
    expect(await pages(database.url, target, false)).toEqual(before);
  }, 240_000); // two API processes and a fill: 25 s on the loaded 2-core machine
});
