import { TRPCError } from "@trpc/server";
import { parse } from "csv-parse/sync";
import { beforeAll, describe, expect, it } from "vitest";
import { createDashboardCaller } from "@/server/api/dashboard/root";
import { openRecordsExport } from "@/server/modules/records/export-records";
import { createUser } from "@/server/modules/users/create-user";
import { createTestApi, mintTestKey } from "@/test/api-client";
import { useTestDatabase } from "@/test/db";
import { outcomeOf } from "@/test/trpc-outcome";

const database = useTestDatabase();
const call = createTestApi(() => database.prisma);
const T = (day: number, hour = 12) => new Date(Date.UTC(2026, 3, day, hour, 0, 0));

type Caller = ReturnType<typeof createDashboardCaller>;
let orgA: string;
let orgB: string;
let formA: string;
let formB: string;
let token: string;
let owner: Caller;
let admin: Caller;
let member: Caller;
let support: Caller;

beforeAll(async () => {
  const db = database.prisma;
  const ownerRow = await db.user.create({ data: { email: "owner@x.test", passwordHash: "x", isInstanceOwner: true } });
  orgA = (await db.organization.create({ data: { name: "A" } })).id;
  orgB = (await db.organization.create({ data: { name: "B" } })).id;
  formA = (await db.form.create({ data: { organizationId: orgA, name: "Inspection" } })).id;
  formB = (await db.form.create({ data: { organizationId: orgB, name: "B's form" } })).id;
  const make = (input: Parameters<typeof createUser>[1]) => createUser(db, input, { type: "user", id: ownerRow.id });
  const as = (userId: string) => createDashboardCaller({ db, requestId: "req_test", sessionUserId: userId });
  owner = as(ownerRow.id);
  admin = as((await make({ email: "admin@x.test", membership: { organizationId: orgA, role: "admin" } })).id);
  member = as((await make({ email: "member@x.test", membership: { organizationId: orgA, role: "member" } })).id);
  support = as((await make({ email: "support@x.test", instanceRole: "support" })).id);
  // Ties on created_at, three submitters, nested values and a formula-looking cell.
  const seed = [
    { by: "ana", at: T(1), v: { site: '=HYPERLINK("http://evil")', n: 1 } },
    { by: "ben", at: T(2), v: { site: "North", tags: ["a", "b"] } },
    { by: "ana", at: T(2), v: { site: "East", nested: { depth: { x: 1 } } } },
    { by: "cy", at: T(2), v: { site: "+SUM(1)", n: -3 } },
    { by: "ana", at: T(3), v: { note: "line\nbreak, comma" } },
    { by: "ben", at: T(3), v: {} },
    { by: "ana", at: T(4), v: { site: "@cmd", n: 7 } },
    { by: "ana", at: T(4, 13), v: { site: "-1+2" } },
  ];
  await db.record.createMany({ data: seed.map((r) => ({ organizationId: orgA, formId: formA, createdBy: r.by, createdAt: r.at, fieldValues: r.v })) });
  await db.record.create({ data: { organizationId: orgB, formId: formB, createdBy: "ana", fieldValues: {}, createdAt: T(2) } });
  token = (await mintTestKey(db, { organizationId: orgA, scopes: ["records:read"] })).token;
});

type Filters = { created_after?: string; created_before?: string; submitted_by?: string };

/** Every record id GET …/records returns for the filters, newest first, walked page by page. */
async function restWalk(filters: Filters, limit: number): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | null = null;
  do {
    const query: URLSearchParams = new URLSearchParams({ ...filters, sort: "-created_at", limit: String(limit), ...(cursor ? { cursor } : {}) });
    type ListBody = { data: { id: string }[]; meta: { next_cursor: string | null } };
    const res: Awaited<ReturnType<typeof call<ListBody>>> = await call<ListBody>("GET", `/organizations/${orgA}/forms/${formA}/records?${query}`, { token });
    expect(res.status).toBe(200);
    ids.push(...res.body.data.map((r) => r.id));
    cursor = res.body.meta.next_cursor;
  } while (cursor);
  return ids;
}

async function browserWalk(caller: Caller, filters: Filters, limit: number): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await caller.forms.records({
      organizationId: orgA,
      formId: formA,
      limit,
      cursor,
      createdAfter: filters.created_after as never,
      createdBefore: filters.created_before as never,
      submittedBy: filters.submitted_by,
    });
    ids.push(...page.items.map((r) => r.id));
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return ids;
}

async function exportCsv(filters: Filters, batchSize = 2): Promise<string[][]> {
  const opened = await openRecordsExport(
    database.prisma,
    orgA,
    {
      formId: formA,
      createdAfter: filters.created_after ? new Date(filters.created_after) : undefined,
      createdBefore: filters.created_before ? new Date(filters.created_before) : undefined,
      submittedBy: filters.submitted_by,
    },
    { batchSize },
  );
  let text = "";
  for await (const chunk of opened.chunks) text += chunk;
  return parse(text) as string[][];
}

const FILTERS: Filters[] = [
  {},
  { submitted_by: "ana" },
  { submitted_by: "ben", created_after: T(2).toISOString() },
  { created_after: T(1).toISOString(), created_before: T(4).toISOString() },
  { created_before: "2026-04-02T14:00:00+02:00" },
  { submitted_by: "nobody" },
];

describe("the records browser and GET …/records", () => {
  it("return the same records in the same order for the same filters, across page sizes", async () => {
    for (const filters of FILTERS) {
      for (const limit of [1, 3, 25]) {
        const rest = await restWalk(filters, limit);
        expect(await browserWalk(member, filters, limit), JSON.stringify({ filters, limit })).toEqual(rest);
      }
    }
    expect(await restWalk({ submitted_by: "ana" }, 25)).toHaveLength(5);
  });

  it("the export holds exactly the records of the API walk, one column per field, nested values as JSON", async () => {
    for (const filters of FILTERS) {
      const [header, ...rows] = await exportCsv(filters);
      expect(
        rows.map((row) => row[0]),
        JSON.stringify(filters),
      ).toEqual(await restWalk(filters, 100));
      expect(header!.slice(0, 3)).toEqual(["id", "created_by", "created_at"]);
    }
    const [header, ...rows] = await exportCsv({});
    expect(header).toEqual(["id", "created_by", "created_at", "n", "nested", "note", "site", "tags"]);
    const byId = new Map(rows.map((row) => [row[0], Object.fromEntries(header!.map((h, i) => [h, row[i]]))]));
    const records = await database.prisma.record.findMany({ where: { formId: formA } });
    for (const record of records) {
      const row = byId.get(record.id)!;
      expect(row.created_by).toBe(record.createdBy);
      expect(row.created_at).toBe(record.createdAt.toISOString());
    }
    const values = rows.map((row) => Object.fromEntries(header!.map((h, i) => [h, row[i]])));
    expect(values.find((v) => v.nested)?.nested).toBe('{"depth":{"x":1}}');
    expect(values.find((v) => v.tags)?.tags).toBe('["a","b"]');
    expect(values.find((v) => v.note)?.note).toBe("line\nbreak, comma");
    expect(values.find((v) => v.n === "-3")).toBeDefined();
  });

  it("the export neutralises cells a spreadsheet would run as formulas", async () => {
    const [, ...rows] = await exportCsv({});
    const sites = rows.map((row) => row[6]).filter(Boolean);
    expect(sites).toContain('\'=HYPERLINK("http://evil")');
    expect(sites).toContain("'+SUM(1)");
    expect(sites).toContain("'@cmd");
    expect(sites).toContain("'-1+2");
    expect(sites.every((site) => !/^[=+\-@]/.test(site!))).toBe(true);
  });

  it("counts records per UTC day of the filtered set", async () => {
    expect(await member.forms.perDay({ organizationId: orgA, formId: formA })).toEqual([
      { day: "2026-04-01", records: 1 },
      { day: "2026-04-02", records: 3 },
      { day: "2026-04-03", records: 2 },
      { day: "2026-04-04", records: 2 },
    ]);
    expect(await member.forms.perDay({ organizationId: orgA, formId: formA, submittedBy: "ben" })).toEqual([
      { day: "2026-04-02", records: 1 },
      { day: "2026-04-03", records: 1 },
    ]);
  });

  it("refuses another organization's form and callers outside the organization", async () => {
    expect(await outcomeOf(member.forms.records({ organizationId: orgA, formId: formB }))).toBe("NOT_FOUND");
    expect(await outcomeOf(member.forms.records({ organizationId: orgB, formId: formB }))).toBe("FORBIDDEN");
    expect(await outcomeOf(admin.forms.list({ organizationId: orgB }))).toBe("FORBIDDEN");
    expect(await outcomeOf(member.forms.records({ organizationId: orgA, formId: formA, createdAfter: "yesterday" as never }))).toBe("BAD_REQUEST");
    await expect(openRecordsExport(database.prisma, orgA, { formId: formB })).rejects.toMatchObject({ code: "not_found" });
  });
});

describe("forms", () => {
  const auditCount = () => database.prisma.auditEvent.count();

  it("lists forms with record counts and latest record, paged by cursor", async () => {
    const first = await support.forms.list({ organizationId: orgA });
    expect(first.items.find((f) => f.id === formA)).toMatchObject({ name: "Inspection", records: 8, latestRecordAt: T(4, 13).toISOString() });
    for (const name of ["Zeta", "Alpha", "Mid"]) await owner.forms.create({ organizationId: orgA, name });
    const names: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await member.forms.list({ organizationId: orgA, limit: 1, cursor });
      names.push(...page.items.map((f) => f.name));
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    expect(names).toEqual(["Alpha", "Inspection", "Mid", "Zeta"]);
    expect((await member.forms.list({ organizationId: orgA })).items.find((f) => f.name === "Zeta")).toMatchObject({ records: 0, latestRecordAt: null });
  });

  it("admins and owners create, rename and delete (one audit event each); support and members cannot", async () => {
    const before = await auditCount();
    for (const caller of [support, member]) {
      expect(await outcomeOf(caller.forms.create({ organizationId: orgA, name: "Nope" }))).toBe("FORBIDDEN");
      expect(await outcomeOf(caller.forms.rename({ organizationId: orgA, formId: formA, name: "Nope" }))).toBe("FORBIDDEN");
      expect(await outcomeOf(caller.forms.delete({ organizationId: orgA, formId: formA }))).toBe("FORBIDDEN");
    }
    expect(await outcomeOf(admin.forms.rename({ organizationId: orgA, formId: formB, name: "Nope" }))).toBe("NOT_FOUND");
    expect(await outcomeOf(admin.forms.create({ organizationId: orgA, name: "   " }))).toBe("BAD_REQUEST");
    expect(await auditCount()).toBe(before);

    const created = await admin.forms.create({ organizationId: orgA, name: "  Water quality " });
    expect(created.name).toBe("Water quality");
    expect(await auditCount()).toBe(before + 1);
    await admin.forms.rename({ organizationId: orgA, formId: created.id, name: "Water samples" });
    expect(await auditCount()).toBe(before + 2);
    await admin.forms.delete({ organizationId: orgA, formId: created.id });
    expect(await auditCount()).toBe(before + 3);
    const events = await database.prisma.auditEvent.findMany({ where: { targetId: created.id }, orderBy: { createdAt: "asc" } });
    expect(events.map((e) => [e.action, e.actorType, e.organizationId])).toEqual([
      ["form.created", "user", orgA],
      ["form.renamed", "user", orgA],
      ["form.deleted", "user", orgA],
    ]);
    expect(events[1]!.metadata).toMatchObject({ from: "Water quality", to: "Water samples" });
  });

  it("refuses to delete a form that has records, saying how many, and changes nothing", async () => {
    const before = await auditCount();
    const error = await owner.forms.delete({ organizationId: orgA, formId: formA }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TRPCError);
    expect((error as TRPCError).code).toBe("CONFLICT");
    expect((error as TRPCError).message).toContain("has 8 records");
    expect(await database.prisma.form.count({ where: { id: formA } })).toBe(1);
    expect(await auditCount()).toBe(before);
  });
});
