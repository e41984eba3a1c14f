import { describe, expect, it } from "vitest";
import { useTestDatabase } from "@/test/db";
import { listSubmitters } from "./list-submitters";

const database = useTestDatabase();

describe("submitter suggestions (D458)", () => {
  it("contain the typed text in any case, most records first, within the form and organization", async () => {
    const db = database.prisma;
    const organization = await db.organization.create({ data: { name: "A" } });
    const form = await db.form.create({ data: { organizationId: organization.id, name: "Visits" } });
    const other = await db.form.create({ data: { organizationId: organization.id, name: "Other" } });
    const by = ["tablet-07", "tablet-07", "Tablet-12", "phone-1", "50%_off"];
    await db.record.createMany({ data: by.map((createdBy) => ({ organizationId: organization.id, formId: form.id, createdBy, fieldValues: {} })) });
    await db.record.create({ data: { organizationId: organization.id, formId: other.id, createdBy: "tablet-99", fieldValues: {} } });
    expect(await listSubmitters(db, organization.id, form.id, "TABLET")).toEqual([
      { createdBy: "tablet-07", records: 2 },
      { createdBy: "Tablet-12", records: 1 },
    ]);
    const all = (await listSubmitters(db, organization.id, form.id, undefined)).map((s) => s.createdBy);
    // Most records first; ties in the database's collation order.
    expect(all[0]).toBe("tablet-07");
    expect(all.slice(1).sort()).toEqual(["50%_off", "Tablet-12", "phone-1"]);
    // LIKE's wildcards are text here.
    expect((await listSubmitters(db, organization.id, form.id, "%_")).map((s) => s.createdBy)).toEqual(["50%_off"]);
    await expect(listSubmitters(db, "no-org", form.id, "t")).rejects.toMatchObject({ code: "not_found" });
  });
});
