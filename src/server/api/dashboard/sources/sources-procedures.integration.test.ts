import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { TRPCError } from "@trpc/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resetEnvCache } from "@/env";
import { handleCsvUpload } from "@/server/api/dashboard/csv-upload";
import { createDashboardCaller } from "@/server/api/dashboard/root";
import { createUser } from "@/server/modules/users/create-user";
import { csvUploadRequest, sessionCookie, useSessionSecret } from "@/test/csv-upload-request";
import { useTestDatabase } from "@/test/db";
import { useTestRequestLog } from "@/test/request-log";

const database = useTestDatabase();
const requestLog = useTestRequestLog(database);
let dataDir: string;
const savedDataDir = process.env.GROUNDWORK_DATA_DIR;

beforeAll(async () => {
  // The create and test-connection procedures read the sealing key from the data directory.
  dataDir = await mkdtemp(path.join(tmpdir(), "gw-sources-procedures-"));
  process.env.GROUNDWORK_DATA_DIR = dataDir;
  resetEnvCache();
  useSessionSecret();
});
afterAll(async () => {
  if (savedDataDir === undefined) delete process.env.GROUNDWORK_DATA_DIR;
  else process.env.GROUNDWORK_DATA_DIR = savedDataDir;
  resetEnvCache();
  await rm(dataDir, { recursive: true, force: true });
});

async function setup() {
  const ownerRow = await database.prisma.user.create({ data: { email: `owner-${Math.random()}@x.test`, passwordHash: "x", isInstanceOwner: true } });
  const a = await database.prisma.organization.create({ data: { name: "A" } });
  const b = await database.prisma.organization.create({ data: { name: "B" } });
  const make = (input: Parameters<typeof createUser>[1]) => createUser(database.prisma, input, { type: "user", id: ownerRow.id });
  const admin = await make({ email: `admin-${Math.random()}@x.test`, membership: { organizationId: a.id, role: "admin" } });
  const member = await make({ email: `member-${Math.random()}@x.test`, membership: { organizationId: a.id, role: "member" } });
  const support = await make({ email: `support-${Math.random()}@x.test`, instanceRole: "support" });
  const as = (userId: string) => createDashboardCaller({ db: database.prisma, requestId: "req_test", sessionUserId: userId });
  return { a, b, owner: as(ownerRow.id), admin: as(admin.id), member: as(member.id), support: as(support.id), adminId: admin.id };
}

/** The dashboard's CSV upload (a route handler since D161, not a procedure). */
async function uploadCsv(userId: string, target: { organizationId: string; sourceId: string }, content: string) {
  const response = await handleCsvUpload(
    csvUploadRequest(target, content, { cookie: await sessionCookie(database.prisma, userId) }),
    target,
    database.prisma,
    requestLog.writer,
  );
  const body = (await response.json()) as { dataVersion: number; rows: number; columns: string[]; error?: { code: string; message: string } };
  if (response.status !== 200) throw new Error(`${response.status} ${body.error?.code}: ${body.error?.message}`);
  return body;
}

async function failure(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return "OK";
  } catch (error) {
    return error instanceof TRPCError ? `${error.code}: ${error.message}` : String(error);
  }
}

describe("dashboard sources procedures", () => {
  it("read for owners, support and members; change for owners and that organization's admins only", async () => {
    const s = await setup();
    const csv = { kind: "csv" as const, name: "Prices", keyColumn: "sku" };
    expect(await failure(s.member.sources.create({ organizationId: s.a.id, source: csv }))).toMatch(/^FORBIDDEN/);
    expect(await failure(s.support.sources.create({ organizationId: s.a.id, source: csv }))).toMatch(/^FORBIDDEN/);
    expect(await failure(s.admin.sources.create({ organizationId: s.b.id, source: csv }))).toMatch(/^FORBIDDEN/);
    const { id } = await s.admin.sources.create({ organizationId: s.a.id, source: csv });
    const inB = await s.owner.sources.create({ organizationId: s.b.id, source: csv });
    const key = { organizationId: s.a.id, sourceId: id };

    for (const caller of [s.owner, s.admin, s.member, s.support]) expect((await caller.sources.get(key)).id).toBe(id);
    expect((await s.support.sources.get(key)).canManage).toBe(false);
    expect((await s.admin.sources.get(key)).canManage).toBe(true);
    for (const call of [s.support.sources.syncNow(key), s.support.sources.approveDeletions(key), s.member.sources.syncNow(key)]) {
      expect(await failure(call)).toMatch(/^FORBIDDEN/);
    }
    // Another organization's source named under one's own is absent, even for the owner.
    expect(await failure(s.admin.sources.get({ organizationId: s.a.id, sourceId: inB.id }))).toMatch(/^NOT_FOUND/);
    expect(await failure(s.admin.sources.get({ organizationId: s.b.id, sourceId: inB.id }))).toMatch(/^FORBIDDEN/);
    // The deletion review's held rows (D465): whoever may read the source; nobody across tenants.
    for (const caller of [s.owner, s.admin, s.member, s.support]) expect((await caller.sources.heldRows(key)).items).toEqual([]);
    expect(await failure(s.admin.sources.heldRows({ organizationId: s.b.id, sourceId: inB.id }))).toMatch(/^FORBIDDEN/);
    expect(await failure(s.admin.sources.heldRows({ organizationId: s.a.id, sourceId: inB.id }))).toMatch(/^NOT_FOUND/);
    expect(await failure(s.admin.sources.board({}))).toMatch(/^FORBIDDEN/);
    expect(await failure(s.member.sources.board({}))).toMatch(/^FORBIDDEN/);
    expect((await s.admin.sources.list({ organizationId: s.a.id })).items.map((x) => x.id)).toEqual([id]);
    expect(await database.prisma.dataSourceRow.count()).toBe(0);
  });

  it("a CSV upload with a bad line names it and changes nothing; a good one bumps data_version; rows are searchable", async () => {
    const s = await setup();
    const { id } = await s.admin.sources.create({ organizationId: s.a.id, source: { kind: "csv", name: "Prices", keyColumn: "sku" } });
    const key = { organizationId: s.a.id, sourceId: id };
    const first = await uploadCsv(s.adminId, key, "sku,price\nA1,10\nB2,12\n");
    expect(first).toMatchObject({ rows: 2, columns: ["sku", "price"] });
    expect(await failure(uploadCsv(s.adminId, key, "sku,price\nC3,1\n,2\n"))).toMatch(/^Error: 400 bad_request: .*line 3/);
    const after = await s.admin.sources.get(key);
    expect(after).toMatchObject({ dataVersion: first.dataVersion, liveRows: 2, state: "ok" });
    expect((await uploadCsv(s.adminId, key, "sku,price\nA1,11\n")).dataVersion).toBe(first.dataVersion + 1);
    // The upload is reconciled on the key (D150): B2 is now a tombstone.
    const [b2] = (await s.member.sources.rows({ ...key, includeDeleted: true, search: "b2" })).items;
    expect(b2).toMatchObject({ externalId: "B2", deletedAt: expect.any(String) });
    expect((await s.member.sources.rows({ ...key, search: "b2" })).items).toEqual([]);
    expect((await s.member.sources.rows({ ...key, search: "11" })).items.map((r) => r.externalId)).toEqual(["A1"]);
    expect((await s.member.sources.rows({ ...key })).items.map((r) => r.externalId)).toEqual(["A1"]);
    const history = await s.support.sources.history(key);
    expect(history.items).toHaveLength(2);
  });

  it("test connection and create answer with the target rules' reasons; secrets never come back", async () => {
    const s = await setup();
    const settings = {
      kind: "postgres_table" as const,
      config: { table: "public.t", keyColumn: "id" },
      credentials: { url: "postgres://u:sup3r-secret@db.example:5432/db?options=-c%20search_path%3Devil" },
    };
    const checked = await s.admin.sources.testConnection({ organizationId: s.a.id, settings });
    expect(checked).toMatchObject({ ok: false, reason: expect.stringMatching(/parameter options is not allowed/) });
    expect(JSON.stringify(checked)).not.toContain("sup3r-secret");
    expect(await failure(s.support.sources.testConnection({ organizationId: s.a.id, settings }))).toMatch(/^FORBIDDEN/);
    expect(await failure(s.admin.sources.create({ organizationId: s.a.id, source: { ...settings, name: "T" } }))).toMatch(
      /^BAD_REQUEST: [\s\S]*parameter options is not allowed/,
    );
    expect(await database.prisma.dataSource.count({ where: { organizationId: s.a.id } })).toBe(0);
  });

  it("discovery (D493): managers only; a refused target answers with its reason and never the password", async () => {
    const s = await setup();
    const credentials = { host: "169.254.169.254", port: 5432, database: "db", user: "u", password: "sup3r-secret", sslmode: null };
    const found = await s.admin.sources.discover({ organizationId: s.a.id, credentials });
    expect(found).toMatchObject({ ok: false, reason: expect.stringMatching(/^Could not connect: /) });
    expect(JSON.stringify(found)).not.toContain("sup3r-secret");
    for (const caller of [s.member, s.support]) expect(await failure(caller.sources.discover({ organizationId: s.a.id, credentials }))).toMatch(/^FORBIDDEN/);
    expect(await failure(s.admin.sources.discover({ organizationId: s.b.id, credentials }))).toMatch(/^FORBIDDEN/);
  });
});
