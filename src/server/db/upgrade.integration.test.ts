import { existsSync, readFileSync } from "node:fs";
import { cp, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { displayPrefix, generateToken, hashToken } from "@/server/modules/api-keys/token";
import { startApiProcess } from "@/test/api-process";
import { createTestDatabase } from "@/test/db";
import { withClient } from "./admin";
import { createPrismaClient } from "./client";
import { applyMigrations, DEFAULT_MIGRATIONS_DIR } from "./migrations";

// An instance of the previous release (prisma/releases.json), filled with data of every kind, is
// upgraded by the current code: every row survives (count and checksum per table, over the columns
// the table had before), and the API answers the same pages (D394).
// NOTE: the fill writes the older schema with statements that name only the columns it had (raw
// inserts, createMany: no RETURNING of columns added since), because the current code cannot run on
// it: this wave's migrations add columns the code reads and writes (api_keys.revoke_at,
// request_log.surface, audit_events.target_label). So the "same pages" check compares the pages
// after the upgrade with what the fill wrote, not with pages the old schema served; serving the
// old schema would need the previous release's own code.
const releases = JSON.parse(readFileSync("prisma/releases.json", "utf8")) as Record<string, { commit: string; lastMigration: string } | string>;
const previous = Object.entries(releases)
  .filter((entry): entry is [string, { commit: string; lastMigration: string }] => typeof entry[1] === "object")
  .at(-1)!;
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
    const [organizationId, ownerId] = [crypto.randomUUID(), crypto.randomUUID()];
    await db.organization.createMany({ data: [{ id: organizationId, name: "Upgraded" }] });
    await db.user.createMany({ data: [{ id: ownerId, email: "owner@upgrade.test", passwordHash: "x", isInstanceOwner: true }] });
    const token = generateToken("live");
    for (const [name, token_, org] of [
      ["before", token, organizationId],
      ["instance", generateToken("live"), null],
    ] as const) {
      await db.$executeRaw`INSERT INTO api_keys (id, name, prefix, hash, checksummed, scopes, organization_id, rate_limit)
        VALUES (${crypto.randomUUID()}, ${name}, ${displayPrefix(token_)}, ${hashToken(token_)}, true, ${["*:*"]}::text[], ${org}, 600)`;
    }
    let sourceId = "";
    for (const kind of ["csv", "postgres_table", "crm_object"] as const) {
      const id = crypto.randomUUID();
      if (kind === "csv") sourceId = id;
      await db.dataSource.createMany({
        data: [
          {
            id,
            organizationId,
            name: kind,
            kind,
            config: kind === "csv" ? { keyColumn: "sku" } : { table: "public.t", keyColumn: "id" },
            credentialsEncrypted: kind === "csv" ? null : "v1:opaque",
            columns: ["id", "v"],
          },
        ],
      });
      // 200 rows, a tenth of them tombstones, 20 row versions: what uploads and passes leave.
      await db.dataSourceRow.createMany({
        data: Array.from({ length: 200 }, (_, i) => ({
          dataSourceId: id,
          externalId: String(i),
          data: { id: i, v: `v${i}` },
          dataHash: `h${i}`,
          displayOrder: i,
          createdAt: T(0),
          updatedAt: T(i % 50),
          deletedAt: i % 10 === 0 ? T(55) : null,
        })),
      });
      await db.dataSourceRowVersion.createMany({
        data: Array.from({ length: 20 }, (_, i) => ({
          dataSourceId: id,
          rowId: `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`,
          externalId: String(i),
          data: { id: i, v: "old" },
          displayOrder: i,
          createdAt: T(0),
          updatedAt: T(1),
          supersededAt: T(2),
        })),
      });
      await db.syncRun.createMany({ data: [{ dataSourceId: id, trigger: "schedule", status: "ok", startedAt: T(3), finishedAt: T(4), inserted: 200 }] });
    }
    const formId = crypto.randomUUID();
    await db.form.createMany({ data: [{ id: formId, organizationId, name: "Visits" }] });
    await db.record.createMany({
      data: Array.from({ length: 120 }, (_, i) => ({ organizationId, formId, createdBy: `u${i % 7}`, fieldValues: { n: i }, createdAt: T(i % 60) })),
    });
    await db.auditEvent.createMany({
      data: [
        { action: "test.before_upgrade", actorType: "cli", targetType: "organization", targetId: organizationId, createdAt: T(5) },
        {
          action: "api_key.minted",
          actorType: "cli",
          organizationId,
          targetType: "api_key",
          targetId: organizationId,
          metadata: { name: "before" },
          createdAt: T(6),
        },
        {
          action: "data_source.created",
          actorType: "cli",
          organizationId,
          targetType: "data_source",
          targetId: sourceId,
          metadata: { name: "csv" },
          createdAt: T(7),
        },
        { action: "form.created", actorType: "cli", organizationId, targetType: "form", targetId: formId, metadata: { name: "Visits" }, createdAt: T(8) },
      ],
    });
    return { organizationId, sourceId, formId, token };
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
      const {
        rows: [figures],
      } = await client.query<{ rows: number; checksum: string }>(
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
      for (let i = 0; i < 3; i++)
        await call("POST", `/organizations/${target.organizationId}/forms/${target.formId}/records`, { created_by: "api", field_values: { i } });
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
  ])(
    "from %s: every row survives and the API answers with what the older schema held",
    async (_from, last) => {
      const database = await createTestDatabase({ migrated: false });
      cleanups.push(database.drop);
      await applyMigrations(database.url, { migrationsDir: await releaseMigrations(previous[0], last) });
      const target = await fill(database.url);
      const old = await snapshot(database.url);
      expect(old.tables.audit_events?.rows).toBe(4);

      const { applied } = await applyMigrations(database.url);
      const current = (await readdir(DEFAULT_MIGRATIONS_DIR)).filter((name) => name > last && name !== "migration_lock.toml");
      expect(applied).toEqual(current);
      if (last < D345) expect(applied).toContain(D345);

      expect((await snapshot(database.url, old.columns)).tables).toEqual(old.tables);
      // The API on the upgraded schema answers with what the older one held, and writes (records, the request log).
      const after = await pages(database.url, target, true);
      const rows = after.rows.data as Array<{ external_id: string; deleted_at: string | null; data: { v: string } }>;
      expect(rows.map((row) => [row.external_id, row.deleted_at !== null, row.data.v])).toEqual(
        Array.from({ length: 100 }, (_, i) => [String(i), i % 10 === 0, `v${i}`]),
      );
      const records = after.records.data as Array<{ field_values: { n?: number; i?: number } }>;
      expect(records).toHaveLength(50);
      expect(new Set(records.map((record) => JSON.stringify(record.field_values))).size).toBe(50);
      expect(await pages(database.url, target, false)).toEqual(after);
    },
    240_000,
  ); // two API processes and a fill
});
