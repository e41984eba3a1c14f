import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resetEnvCache } from "@/env";
import { createDashboardCaller } from "@/server/api/dashboard/root";
import { handleRowsExport } from "@/server/api/dashboard/rows-export";
import { newRawConnection } from "@/server/db/client";
import { CLI_OPERATOR, SYSTEM } from "@/server/modules/access/acting-principal";
import { createCsvSource } from "@/server/modules/data-sources/create-csv-source";
import { replaceCsvRows } from "@/server/modules/data-sources/csv/replace-csv-rows";
import { useCustomerDatabase } from "@/server/modules/data-sources/testing/customer-database";
import { createTableSource, syncNow } from "@/server/modules/data-sources/testing/source-fixtures";
import { acquireExportSlot, runningExports } from "@/server/modules/exports/export-slots";
import { createUser } from "@/server/modules/users/create-user";
import { cliRunner } from "@/test/cli-process";
import { sessionCookie, useSessionSecret } from "@/test/csv-upload-request";
import { useTestDatabase } from "@/test/db";
import { openRowsExport } from "./export-rows";

// Issue 43 item 5: rows as a table in the source's own column order, and their CSV export (D450–D454).

const database = useTestDatabase();
const customer = useCustomerDatabase();
let dataDir: string;
const { cli } = cliRunner(() => ({ DATABASE_URL: database.url, GROUNDWORK_DATA_DIR: dataDir, GROUNDWORK_ENCRYPTION_KEY: "" }));

beforeAll(async () => {
  useSessionSecret();
  // The export's request log is dashboard-request-log's to test; here the process writer would
  // write through a DATABASE_URL this file does not set.
  process.env.GROUNDWORK_REQUEST_LOG = "off";
  resetEnvCache();
  dataDir = await mkdtemp(path.join(tmpdir(), "gw-rows-export-"));
});
afterAll(async () => {
  delete process.env.GROUNDWORK_REQUEST_LOG;
  resetEnvCache();
  await rm(dataDir, { recursive: true, force: true });
});

const db = () => database.prisma;

/** A CSV source whose header is deliberately not in alphabetical (nor jsonb's) order. */
async function csvSource(content = "zeta,alpha,Mid,id\nz1,a1,m1,R1\nz2,a2,m2,R2\nz3,=cmd(),m3,R3\n") {
  const organization = await db().organization.create({ data: { name: `Org ${Math.random()}` } });
  const { id } = await createCsvSource(db(), CLI_OPERATOR, { organizationId: organization.id, name: "Price list", keyColumn: "id" });
  await replaceCsvRows(db(), SYSTEM, id, content);
  return { organizationId: organization.id, sourceId: id };
}

async function read(chunks: AsyncGenerator<string, void, undefined>): Promise<string[]> {
  const out: string[] = [];
  for await (const chunk of chunks) out.push(chunk);
  return out;
}

describe("rows table: the source's own column order", () => {
  it("a CSV source keeps its header order, a Postgres source its table's column order; the rows procedure returns it", async () => {
    const csv = await csvSource();
    const owner = await db().user.create({ data: { email: `owner-${Math.random()}@x.test`, passwordHash: "x", isInstanceOwner: true } });
    const caller = createDashboardCaller({ db: db(), requestId: "req_test", sessionUserId: owner.id });
    const page = await caller.sources.rows({ organizationId: csv.organizationId, sourceId: csv.sourceId });
    expect(page.columns).toEqual(["zeta", "alpha", "Mid", "id"]);
    // jsonb's own key order (by length, then bytes) is what the old raw-JSON column showed.
    expect(Object.keys(page.items[0]!.data as object)).not.toEqual(page.columns);

    await customer.query("CREATE TABLE public.ordered_cols (zcode text, id int PRIMARY KEY, amount numeric, b text)");
    await customer.query("INSERT INTO public.ordered_cols VALUES ('x', 1, 2.5, 'b1'), ('y', 2, 3, 'b2')");
    const tableId = await createTableSource(db(), { url: customer.url, table: "public.ordered_cols", key: "id" });
    expect((await syncNow(db(), tableId)).status).toBe("ok");
    const table = await db().dataSource.findUniqueOrThrow({ where: { id: tableId } });
    const tablePage = await caller.sources.rows({ organizationId: table.organizationId, sourceId: tableId });
    expect(tablePage.columns).toEqual(["zcode", "id", "amount", "b"]);

    // Sorts of the rows endpoint and the external_id filter.
    const key = { organizationId: csv.organizationId, sourceId: csv.sourceId };
    expect((await caller.sources.rows({ ...key, sort: "-display_order" })).items.map((r) => r.externalId)).toEqual(["R3", "R2", "R1"]);
    expect((await caller.sources.rows({ ...key, sort: "updated_at" })).items).toHaveLength(3);
    expect((await caller.sources.rows({ ...key, externalId: "R2" })).items.map((r) => r.externalId)).toEqual(["R2"]);
    expect((await caller.sources.rows({ ...key, externalId: "R" })).items).toEqual([]);
  });
});

describe("rows export", () => {
  it("streams the rows in batches, header in the source's order, formulas neutralised; tombstones on request; audited", async () => {
    const { sourceId } = await csvSource();
    await replaceCsvRows(db(), SYSTEM, sourceId, "zeta,alpha,Mid,id\nz1,a1,m1,R1\nz3,=cmd(),m3,R3\n");
    const live = await openRowsExport(db(), CLI_OPERATOR, sourceId, { batchSize: 1 });
    expect(live.header).toEqual(["zeta", "alpha", "Mid", "id", "_external_id", "_updated_at"]);
    const chunks = await read(live.chunks);
    // Header, then one chunk per batch of one row: read as the client pulls, never whole.
    expect(chunks).toHaveLength(3);
    expect(chunks[0]).toBe("zeta,alpha,Mid,id,_external_id,_updated_at\r\n");
    expect(chunks[1]).toMatch(/^z1,a1,m1,R1,R1,\d{4}-\d\d-\d\dT[^,]+Z\r\n$/);
    expect(chunks[2]).toMatch(/^z3,'=cmd\(\),m3,R3,R3,/);
    expect(live.rowsWritten()).toBe(2);

    const all = await openRowsExport(db(), CLI_OPERATOR, sourceId, { includeDeleted: true });
    const lines = (await read(all.chunks)).join("").trim().split("\r\n");
    expect(lines[0]!.endsWith(",_deleted_at")).toBe(true);
    expect(lines).toHaveLength(4);
    expect(lines.find((line) => line.startsWith("z2,"))).toMatch(/Z,\d{4}-[^,]+Z$/);
    const audited = await db().auditEvent.findMany({ where: { action: "data_source.rows_exported", targetId: sourceId }, orderBy: { createdAt: "asc" } });
    expect(audited.map((event) => event.metadata)).toEqual([
      { include_deleted: false, columns: 4 },
      { include_deleted: true, columns: 4 },
    ]);
  });

  it("the download: role-checked on the server, bounded by the export pool, a CSV attachment", async () => {
    const { organizationId, sourceId } = await csvSource();
    const other = await db().organization.create({ data: { name: `Other ${Math.random()}` } });
    const owner = await db().user.create({ data: { email: `owner-${Math.random()}@x.test`, passwordHash: "x", isInstanceOwner: true } });
    const make = (input: Parameters<typeof createUser>[1]) => createUser(db(), input, { type: "user", id: owner.id });
    const users = {
      owner: owner.id,
      support: (await make({ email: `support-${Math.random()}@x.test`, instanceRole: "support" })).id,
      admin: (await make({ email: `admin-${Math.random()}@x.test`, membership: { organizationId, role: "admin" } })).id,
      member: (await make({ email: `member-${Math.random()}@x.test`, membership: { organizationId, role: "member" } })).id,
      otherAdmin: (await make({ email: `oadmin-${Math.random()}@x.test`, membership: { organizationId: other.id, role: "admin" } })).id,
    };
    const download = async (userId: string | null, query = "") => {
      const headers: Record<string, string> = { host: "dash.test" };
      if (userId) headers.cookie = await sessionCookie(db(), userId);
      const request = new Request(`http://dash.test/dashboard/organizations/${organizationId}/sources/${sourceId}/export${query}`, { headers });
      return handleRowsExport(request, organizationId, sourceId, db(), () => newRawConnection(db()));
    };
    // The auth matrix of the download.
    const statuses: Record<string, number> = {};
    for (const [role, id] of Object.entries(users)) {
      const response = await download(id);
      statuses[role] = response.status;
      if (response.status === 200) await response.text();
    }
    statuses.noSession = (await download(null)).status;
    expect(statuses).toEqual({ owner: 200, support: 200, admin: 200, member: 200, otherAdmin: 403, noSession: 401 });

    const response = await download(users.member, "?tombstones=1");
    expect(response.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("content-disposition")).toBe('attachment; filename="Price-list-rows-with-tombstones.csv"');
    expect((await response.text()).split("\r\n")[0]).toBe("zeta,alpha,Mid,id,_external_id,_updated_at,_deleted_at");
    expect((await download(users.member, "?tombstones=yes")).status).toBe(400);

    // Bounded: with the user's slots taken (GROUNDWORK_EXPORTS_PER_USER, 2), a third is a 429 with Retry-After.
    const held = [acquireExportSlot(users.admin), acquireExportSlot(users.admin)];
    const refused = await download(users.admin);
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("10");
    held.forEach((slot) => slot.release());
    // A finished download gave its slot back.
    expect(runningExports()).toBe(0);
  });

  it("the CLI twin writes the same CSV to a file and prints a summary under --json", { timeout: 60_000 }, async () => {
    const { sourceId } = await csvSource();
    const file = path.join(dataDir, "rows.csv");
    const result = await cli(["source", "rows-export", sourceId, "--out", file, "--json"]);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({
      source_id: sourceId,
      rows: 3,
      include_deleted: false,
      file,
      columns: ["zeta", "alpha", "Mid", "id", "_external_id", "_updated_at"],
    });
    const text = await readFile(file, "utf8");
    expect(text.split("\r\n").slice(0, 2)).toEqual(["zeta,alpha,Mid,id,_external_id,_updated_at", expect.stringMatching(/^z1,a1,m1,R1,R1,/)]);
    const toStdout = await cli(["source", "rows-export", sourceId]);
    expect(toStdout.code, toStdout.stderr).toBe(0);
    expect(toStdout.stdout.trim()).toBe(text.trim());
    const refused = await cli(["source", "rows-export", sourceId, "--json"]);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain("--out FILE");
  });
});
