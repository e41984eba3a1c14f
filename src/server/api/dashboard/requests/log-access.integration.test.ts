import { describe, expect, it } from "vitest";
import { createDashboardCaller } from "@/server/api/dashboard/root";
import { recordAuditEvent } from "@/server/modules/audit/record-audit-event";
import { newRequestId } from "@/server/web/request-id";
import { createPostgresSink } from "@/server/modules/request-log/postgres-sink";
import { createUser } from "@/server/modules/users/create-user";
import { useTestDatabase } from "@/test/db";
import { outcomeOf } from "@/test/trpc-outcome";

const database = useTestDatabase();

describe("who sees the request log and the audit trail", () => {
  it("an organization admin sees only their organization's requests and events; others' are not found", async () => {
    const db = database.prisma;
    const owner = await db.user.create({ data: { email: "owner@x.test", passwordHash: "x", isInstanceOwner: true } });
    const a = await db.organization.create({ data: { name: "A" } });
    const b = await db.organization.create({ data: { name: "B" } });
    const admin = await createUser(db, { email: "admin@x.test", instanceRole: "none", membership: { organizationId: a.id, role: "admin" } }, { type: "user", id: owner.id });
    const support = await db.user.create({ data: { email: "support@x.test", passwordHash: "x", isSupport: true } });
    const [inA, inB] = [newRequestId(), newRequestId()];
    const base = { occurredAt: new Date(), apiKeyId: null, apiKeyPrefix: null, method: "GET", route: "unmatched", errorCode: null, errorMessage: null };
    const rest = { durationMs: 1, responseBytes: 2, clientAddress: null, userAgent: null, query: null };
    await createPostgresSink(() => db).writeBatch([
      { ...base, ...rest, requestId: inA, organizationId: a.id, status: 200 },
      { ...base, ...rest, requestId: inB, organizationId: b.id, status: 404 },
    ]);
    await recordAuditEvent(db, { action: "test.a", actor: { type: "system" }, organizationId: a.id, target: { type: "t", id: "1" } });
    await recordAuditEvent(db, { action: "test.b", actor: { type: "system" }, organizationId: b.id, target: { type: "t", id: "2" } });

    const as = (userId: string) => createDashboardCaller({ db, requestId: "req_test", sessionUserId: userId });
    expect((await as(admin.id).requests.get({ requestId: inA })).request.status).toBe(200);
    expect(await outcomeOf(as(admin.id).requests.get({ requestId: inB }))).toBe("NOT_FOUND");
    expect(await outcomeOf(as(admin.id).requests.get({ requestId: newRequestId() }))).toBe("NOT_FOUND");
    expect((await as(support.id).requests.get({ requestId: inB })).request.status).toBe(404);
    expect((await as(owner.id).requests.get({ requestId: inB })).organization?.name).toBe("B");

    const adminActions = (await as(admin.id).audit.list({})).items.map((e) => e.action);
    expect(adminActions).toContain("test.a");
    expect(adminActions).not.toContain("test.b");
    expect((await as(admin.id).audit.list({ organizationId: b.id })).items).toEqual([]);
    expect((await as(support.id).audit.list({ organizationId: b.id })).items.map((e) => e.action)).toEqual(["test.b"]);
  });
});
