import { describe, expect, it } from "vitest";
import { useTestDatabase } from "@/test/db";
import { CLI_OPERATOR } from "@/server/modules/access/acting-principal";
import { mintApiKey } from "@/server/modules/api-keys/mint-key";
import { revokeApiKey } from "@/server/modules/api-keys/revoke-key";
import { createForm } from "@/server/modules/forms/create-form";
import { deleteForm, renameForm } from "@/server/modules/forms/change-form";
import { addMember, removeMember, setMemberRole } from "@/server/modules/memberships/members";
import { auditChanges } from "./audit-changes";
import { getAuditEvent, listAuditEvents } from "./list-audit-events";
import { recordAuditEvent } from "./record-audit-event";

const database = useTestDatabase();
const ALL = { kind: "all" } as const;

const account = () => database.prisma.user.create({ data: { email: `u-${Math.random()}@x.test`, passwordHash: "x" } });

async function trail(organizationId: string) {
  const page = await listAuditEvents(database.prisma, ALL, { organizationId }, { limit: 100 });
  return page.items.reverse();
}

describe("audit targets by name (D440)", () => {
  it("names each target as of its event, across a rename, and links (exists) only while the target is there", async () => {
    const db = database.prisma;
    const org = await db.organization.create({ data: { name: `Targets ${Math.random()}` } });
    const form = await createForm(db, CLI_OPERATOR, org.id, "Intake v1");
    await renameForm(db, CLI_OPERATOR, form.id, "Intake v2");
    const other = await createForm(db, CLI_OPERATOR, org.id, "Scratch");
    await deleteForm(db, CLI_OPERATOR, other.id);
    const key = await mintApiKey(db, CLI_OPERATOR, { name: "ci", scopes: "records:read", organizationId: org.id });
    await revokeApiKey(db, CLI_OPERATOR, key.id);
    const member = await addMember(db, org.id, { email: (await account()).email, role: "member" }, { userId: null });
    await setMemberRole(db, org.id, member.userId, "admin", { userId: null });
    await removeMember(db, org.id, member.userId, { userId: null });
    // A later rename of the form must not rewrite what the trail said.
    await renameForm(db, CLI_OPERATOR, form.id, "Intake v3");

    const events = await trail(org.id);
    const byAction = (action: string) => events.filter((e) => e.action === action);
    expect(byAction("form.created").map((e) => [e.targetLabel, e.targetExists])).toEqual([
      ["Intake v1", true],
      ["Scratch", false],
    ]);
    expect(byAction("form.renamed").map((e) => e.targetLabel)).toEqual(["Intake v2", "Intake v3"]);
    expect(byAction("form.deleted").map((e) => [e.targetLabel, e.targetExists])).toEqual([["Scratch", false]]);
    // A revoked key stays visible for audit: it still exists.
    expect(byAction("api_key.revoked").map((e) => [e.targetLabel, e.targetExists])).toEqual([[`ci (${key.prefix}…)`, true]]);
    expect(byAction("api_key.minted").map((e) => [e.targetLabel, e.targetExists, e.targetOrganizationId])).toEqual([[`ci (${key.prefix}…)`, true, org.id]]);
    // Membership events name the user by email even though their metadata does not carry it.
    expect(byAction("membership.removed").map((e) => e.targetLabel)).toEqual([member.email]);
    expect(events.every((e) => e.targetLabelAsOf === "event")).toBe(true);
    // Stored in the row, not worked out at read time.
    const stored = await db.auditEvent.findMany({
      where: { organizationId: org.id, action: "form.created" },
      orderBy: { createdAt: "asc" },
      select: { targetLabel: true },
    });
    expect(stored.map((r) => r.targetLabel)).toEqual(["Intake v1", "Scratch"]);
  });

  it("edits record before and after", async () => {
    const db = database.prisma;
    const org = await db.organization.create({ data: { name: `Edits ${Math.random()}` } });
    const form = await createForm(db, CLI_OPERATOR, org.id, "Before");
    await renameForm(db, CLI_OPERATOR, form.id, "After");
    const member = await addMember(db, org.id, { email: (await account()).email, role: "member" }, { userId: null });
    await setMemberRole(db, org.id, member.userId, "admin", { userId: null });
    const events = await trail(org.id);
    const renamed = events.find((e) => e.action === "form.renamed")!;
    const role = events.find((e) => e.action === "membership.role_changed")!;
    expect(auditChanges(renamed.action, renamed.metadata)).toEqual([{ field: "name", before: "Before", after: "After" }]);
    expect(auditChanges(role.action, role.metadata)).toEqual([{ field: "role", before: "member", after: "admin" }]);
  });

  it("labels an event written before target_label from its metadata, else by the target's current name (no backfill)", async () => {
    const db = database.prisma;
    const org = await db.organization.create({ data: { name: `Old ${Math.random()}` } });
    const form = await db.form.create({ data: { organizationId: org.id, name: "Renamed since" } });
    const base = { actorType: "system", organizationId: org.id, targetType: "form", targetId: form.id };
    const fromMetadata = await db.auditEvent.create({ data: { ...base, action: "form.created", metadata: { name: "Original" } } });
    const bare = await db.auditEvent.create({ data: { ...base, action: "form.touched", metadata: {} } });
    const gone = await db.auditEvent.create({ data: { ...base, action: "form.touched", targetId: "no-such-form", metadata: {} } });
    expect(await getAuditEvent(db, ALL, fromMetadata.id)).toMatchObject({ targetLabel: "Original", targetLabelAsOf: "event", targetExists: true });
    expect(await getAuditEvent(db, ALL, bare.id)).toMatchObject({ targetLabel: "Renamed since", targetLabelAsOf: "now", targetExists: true });
    expect(await getAuditEvent(db, ALL, gone.id)).toMatchObject({ targetLabel: null, targetLabelAsOf: null, targetExists: false });
  });

  it("an event outside the reader's reach is not there", async () => {
    const db = database.prisma;
    const org = await db.organization.create({ data: { name: `Reach ${Math.random()}` } });
    const { id } = await recordAuditEvent(db, {
      action: "test.reach",
      actor: { type: "system" },
      organizationId: org.id,
      target: { type: "t", id: "1", label: "Thing" },
    });
    expect(await getAuditEvent(db, { kind: "organizations", organizationIds: [] }, id)).toBeNull();
    expect(await getAuditEvent(db, { kind: "organizations", organizationIds: [org.id] }, id)).toMatchObject({ targetLabel: "Thing" });
  });
});
