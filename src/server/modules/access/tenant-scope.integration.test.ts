import { describe, expect, it } from "vitest";
import { useTestDatabase } from "@/test/db";
import { requestSourceSync } from "@/server/modules/data-sources/sync-queue";
import { approveDeletions } from "../data-sources/approve-deletions";
import { createCsvSource } from "../data-sources/create-csv-source";
import { createManagedSource } from "../data-sources/create-managed-source";
import { replaceCsvRows } from "../data-sources/csv/replace-csv-rows";
import { getDataSourceDetails } from "../data-sources/get-data-source";
import { testSecrets } from "../data-sources/testing/source-fixtures";
import { createOrganization } from "../organizations/create-organization";
import { deleteOrganization } from "../organizations/delete-organization";
import { listOrganizations } from "../organizations/list-organizations";
import { createInstanceOwner } from "../users/create-owner";
import { actingInOrganization, CLI_OPERATOR, type ActingPrincipal } from "./acting-principal";

const db = useTestDatabase();

async function twoTenants() {
  const a = await createOrganization(db.prisma, CLI_OPERATOR, "Tenant A");
  const b = await createOrganization(db.prisma, CLI_OPERATOR, "Tenant B");
  const asA = actingInOrganization(a.id, { type: "user", id: "admin-a" });
  const asB = actingInOrganization(b.id, { type: "user", id: "admin-b" });
  const source = await createCsvSource(db.prisma, asA, { organizationId: a.id, name: "Sites", keyColumn: "code" });
  await replaceCsvRows(db.prisma, asA, source.id, "code,name\nS1,One\nS2,Two\n");
  return { a, b, asA, asB, sourceId: source.id };
}

const notFound = { code: "not_found" };

describe("domain functions refuse anything outside the acting principal's organization", () => {
  it("another organization's source cannot be read, uploaded to, approved or synced: not_found, nothing changes", async () => {
    const { asA, asB, sourceId } = await twoTenants();
    const before = await db.prisma.dataSourceRow.findMany({ where: { dataSourceId: sourceId }, orderBy: { externalId: "asc" } });

    await expect(getDataSourceDetails(db.prisma, asB, sourceId)).rejects.toMatchObject(notFound);
    await expect(replaceCsvRows(db.prisma, asB, sourceId, "code,name\nX,Gone\n")).rejects.toMatchObject(notFound);
    await db.prisma.dataSource.update({ where: { id: sourceId }, data: { declinedDeletions: 3 } });
    await expect(approveDeletions(db.prisma, asB, sourceId)).rejects.toMatchObject(notFound);
    await expect(requestSourceSync(db.prisma, asB, sourceId)).rejects.toMatchObject(notFound);

    expect(await db.prisma.dataSourceRow.findMany({ where: { dataSourceId: sourceId }, orderBy: { externalId: "asc" } })).toEqual(before);
    expect(await db.prisma.dataSource.findUniqueOrThrow({ where: { id: sourceId } })).toMatchObject({ dataVersion: 2, deletionsApprovedAt: null });
    // The owner's own principal, and the instance, reach it.
    expect(await getDataSourceDetails(db.prisma, asA, sourceId)).toMatchObject({ id: sourceId, liveRows: 2 });
    expect(await getDataSourceDetails(db.prisma, CLI_OPERATOR, sourceId)).toMatchObject({ id: sourceId });
    await expect(approveDeletions(db.prisma, asA, sourceId)).resolves.toMatchObject({ count: 3 });
  });

  it("sources cannot be created in another organization", async () => {
    const { a, asB } = await twoTenants();
    await expect(createCsvSource(db.prisma, asB, { organizationId: a.id, name: "Intruder" })).rejects.toMatchObject(notFound);
    const managed = {
      kind: "crm_object" as const,
      organizationId: a.id,
      name: "Intruder",
      config: { instanceUrl: "https://203.0.113.9", object: "Account" },
      credentials: { clientId: "x", clientSecret: "y" },
    };
    await expect(createManagedSource(db.prisma, testSecrets, asB, managed)).rejects.toMatchObject(notFound);
    expect(await db.prisma.dataSource.count({ where: { organizationId: a.id, name: "Intruder" } })).toBe(0);
  });

  it("organizations: listed only within reach, deleted only within reach, created only by the instance", async () => {
    const { a, b, asB } = await twoTenants();
    const listed = await listOrganizations(db.prisma, { limit: 100, sort: "created_at", principal: asB });
    expect(listed.items.map((org) => org.id)).toEqual([b.id]);
    await expect(deleteOrganization(db.prisma, asB, a.id)).rejects.toMatchObject(notFound);
    expect(await db.prisma.organization.count({ where: { id: a.id } })).toBe(1);
    await expect(createOrganization(db.prisma, asB, "Another")).rejects.toMatchObject({ code: "forbidden" });
    await expect(createInstanceOwner(db.prisma, asB, { email: "x@example.com", password: "a-long-password-1" })).rejects.toMatchObject({ code: "forbidden" });
  });

  it("an organization principal needs an organization: an empty id is an error, never every organization", () => {
    expect(() => actingInOrganization("", { type: "user" })).toThrow(/organization id is required/);
  });
});

describe("audit events", () => {
  const eventsFor = (targetId: string) => db.prisma.auditEvent.findMany({ where: { targetId }, orderBy: [{ createdAt: "asc" }, { action: "asc" }] });

  it("cover organization creation, source creation, CSV uploads and user creation, with the actor", async () => {
    const { a, asA, sourceId } = await twoTenants();
    expect(await eventsFor(a.id)).toMatchObject([{ action: "organization.created", actorType: "cli", organizationId: a.id, targetType: "organization" }]);
    expect(await eventsFor(sourceId)).toMatchObject([
      { action: "data_source.created", actorType: "user", actorId: "admin-a", organizationId: a.id, metadata: { kind: "csv", name: "Sites" } },
      { action: "data_source.csv_uploaded", actorType: "user", actorId: "admin-a", organizationId: a.id, metadata: { rows: 2, data_version: 2 } },
    ]);
    const managed = await createManagedSource(db.prisma, testSecrets, asA, {
      kind: "crm_object",
      organizationId: a.id,
      name: "Accounts",
      config: { instanceUrl: "https://203.0.113.9", object: "Account" },
      credentials: { clientId: "x", clientSecret: "never-in-audit" },
    });
    const [created] = await eventsFor(managed.id);
    expect(created).toMatchObject({ action: "data_source.created", metadata: { kind: "crm_object", name: "Accounts" } });
    expect(JSON.stringify(created)).not.toContain("never-in-audit");

    const principal: ActingPrincipal = CLI_OPERATOR;
    const owner = await createInstanceOwner(db.prisma, principal, { email: "Owner@Example.com", password: "a-long-password-1" });
    const [userEvent] = await eventsFor(owner.id);
    expect(userEvent).toMatchObject({
      action: "user.created",
      actorType: "cli",
      targetType: "user",
      metadata: { email: "owner@example.com", instance_owner: true },
    });
    expect(JSON.stringify(userEvent)).not.toContain("a-long-password-1");
  });
});
