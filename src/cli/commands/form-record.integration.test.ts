import { describe, expect, it } from "vitest";
import { cliRunner } from "@/test/cli-process";
import { useTestDatabase } from "@/test/db";

const database = useTestDatabase();

const { cli, cliJson } = cliRunner(() => ({ DATABASE_URL: database.url }));

describe("form and record commands (the dashboard's twins)", () => {
  it("form list / rename / delete and record list --form --json, each change audited once", async () => {
    const db = database.prisma;
    const org = await db.organization.create({ data: { name: "Acme" } });
    const form = await cliJson<{ id: string }>(["form", "create", "--org", org.id, "--name", "Inspection"]);
    const empty = await cliJson<{ id: string }>(["form", "create", "--org", org.id, "--name", "Spare"]);
    const at = (day: number) => new Date(Date.UTC(2026, 3, day, 12));
    await db.record.createMany({
      data: [
        { organizationId: org.id, formId: form.id, createdBy: "ana", fieldValues: { site: "A" }, createdAt: at(1) },
        { organizationId: org.id, formId: form.id, createdBy: "ben", fieldValues: { site: "B" }, createdAt: at(2) },
        { organizationId: org.id, formId: form.id, createdBy: "ana", fieldValues: { site: "C" }, createdAt: at(3) },
      ],
    });

    const forms = await cliJson<{ id: string; name: string; records: number; latest_record_at: string | null }[]>(["form", "list", "--org", org.id]);
    expect(forms).toMatchObject([
      { id: form.id, name: "Inspection", records: 3, latest_record_at: at(3).toISOString() },
      { id: empty.id, name: "Spare", records: 0, latest_record_at: null },
    ]);

    const records = await cliJson<{ id: string; created_by: string; created_at: string; field_values: unknown }[]>(["record", "list", "--form", form.id]);
    expect(records.map((r) => r.field_values)).toEqual([{ site: "C" }, { site: "B" }, { site: "A" }]);
    const ana = await cliJson<{ created_by: string }[]>(["record", "list", "--form", form.id, "--submitted-by", "ana", "--created-after", at(1).toISOString()]);
    expect(ana).toMatchObject([{ created_by: "ana" }]);
    const bad = await cli(["record", "list", "--form", form.id, "--created-after", "yesterday"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("created-after");

    const before = await db.auditEvent.count();
    expect(await cliJson<{ name: string }>(["form", "rename", form.id, "--name", "Site inspection"])).toMatchObject({ name: "Site inspection" });
    const refused = await cli(["form", "delete", form.id]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("has 3 records");
    expect(await cliJson<{ deleted: boolean }>(["form", "delete", empty.id])).toMatchObject({ deleted: true });
    const events = await db.auditEvent.findMany({ where: { createdAt: { gte: new Date(0) } }, orderBy: { createdAt: "asc" }, skip: before });
    expect(events.map((e) => [e.action, e.actorType])).toEqual([
      ["form.renamed", "cli"],
      ["form.deleted", "cli"],
    ]);
  }, 120_000);
});
