import { describe, expect, it } from "vitest";
import { createDashboardCaller } from "@/server/api/dashboard/root";
import { recordAuditEvent } from "@/server/modules/audit/record-audit-event";
import { newRequestId } from "@/server/transport/request-id";
import { createPostgresSink } from "@/server/modules/request-log/postgres-sink";
import { createUser } from "@/server/modules/users/create-user";
import { CLI_OPERATOR } from "@/server/modules/access/acting-principal";
import { mintApiKey } from "@/server/modules/api-keys/mint-key";
import { useTestDatabase } from "@/test/db";
import { outcomeOf } from "@/test/trpc-outcome";

const database = useTestDatabase();

describe("who sees the request log and the audit trail", () => {
  it("an organization admin sees only their organization's requests and events; others' are not found", async () => {
    const db = database.prisma;
    const owner = await db.user.create({ data: { email: "owner@x.test", passwordHash: "x", isInstanceOwner: true } });
    const a = await db.organization.create({ data: { name: "A" } });
    const b = await db.organization.create({ data: { name: "B" } });
    const admin = await createUser(
      db,
      { email: "admin@x.test", instanceRole: "none", membership: { organizationId: a.id, role: "admin" } },
      { type: "user", id: owner.id },
    );
    const support = await db.user.create({ data: { email: "support@x.test", passwordHash: "x", isSupport: true } });
    const [inA, inB] = [newRequestId(), newRequestId()];
    const base = {
      occurredAt: new Date(),
      surface: "api" as const,
      userId: null,
      apiKeyId: null,
      apiKeyPrefix: null,
      method: "GET",
      route: "unmatched",
      errorCode: null,
      errorMessage: null,
    };
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

/**
 * The auth matrix of every dashboard procedure that reads the request log or the audit trail
 * (issue 41, D371): the one reach rule (D197) for each role, including no session at all.
 */
describe("request-log and audit procedures: the auth matrix", () => {
  it("member, support, another organization's admin and no session each get the one rule", async () => {
    const db = database.prisma;
    const owner = await db.user.create({ data: { email: "owner@m.test", passwordHash: "x", isInstanceOwner: true } });
    const a = await db.organization.create({ data: { name: "A" } });
    const b = await db.organization.create({ data: { name: "B" } });
    const by = { type: "user" as const, id: owner.id };
    const adminA = await createUser(db, { email: "admin-a@m.test", membership: { organizationId: a.id, role: "admin" } }, by);
    const memberA = await createUser(db, { email: "member-a@m.test", membership: { organizationId: a.id, role: "member" } }, by);
    const adminB = await createUser(db, { email: "admin-b@m.test", membership: { organizationId: b.id, role: "admin" } }, by);
    const support = await createUser(db, { email: "support@m.test", instanceRole: "support" }, by);
    const keyA = await mintApiKey(db, CLI_OPERATOR, { name: "a", scopes: "records:read", organizationId: a.id });
    const inA = newRequestId();
    await createPostgresSink(() => db).writeBatch([
      {
        occurredAt: new Date(),
        surface: "api",
        userId: null,
        apiKeyId: keyA.id,
        apiKeyPrefix: null,
        method: "GET",
        route: "GET /records",
        errorCode: null,
        errorMessage: null,
        durationMs: 1,
        responseBytes: 2,
        clientAddress: "203.0.113.9",
        userAgent: "ua",
        query: null,
        requestId: inA,
        organizationId: a.id,
        status: 200,
      },
    ]);
    const eventA = await recordAuditEvent(db, { action: "matrix.a", actor: { type: "system" }, organizationId: a.id, target: { type: "t", id: "1" } });
    await recordAuditEvent(db, { action: "matrix.b", actor: { type: "system" }, organizationId: b.id, target: { type: "t", id: "2" } });
    await recordAuditEvent(db, { action: "matrix.instance", actor: { type: "system" }, organizationId: null, target: { type: "t", id: "3" } });

    const callers = {
      owner: owner.id,
      adminA: adminA.id,
      member: memberA.id,
      support: support.id,
      otherAdmin: adminB.id,
      none: null,
    } as const;
    type Role = keyof typeof callers;
    const as = (role: Role) => createDashboardCaller({ db, requestId: "req_test", sessionUserId: callers[role] });
    const procedures: Record<string, { call: (c: ReturnType<typeof as>) => Promise<unknown>; expected: Record<Role, string> }> = {
      "requests.get": {
        call: (c) => c.requests.get({ requestId: inA }),
        expected: { owner: "OK", adminA: "OK", member: "NOT_FOUND", support: "OK", otherAdmin: "NOT_FOUND", none: "UNAUTHORIZED" },
      },
      // The request log browser (D430): the instance's for owners and support, an admin's own organizations'.
      "requests.list": {
        call: (c) => c.requests.list({}),
        expected: { owner: "OK", adminA: "OK", member: "FORBIDDEN", support: "OK", otherAdmin: "OK", none: "UNAUTHORIZED" },
      },
      "requests.list (organization A)": {
        call: (c) => c.requests.list({ organizationId: a.id, statusClass: "2xx" }),
        expected: { owner: "OK", adminA: "OK", member: "FORBIDDEN", support: "OK", otherAdmin: "FORBIDDEN", none: "UNAUTHORIZED" },
      },
      "usage.keyRequests": {
        call: (c) => c.usage.keyRequests({ organizationId: a.id, keyId: keyA.id }),
        expected: { owner: "OK", adminA: "OK", member: "FORBIDDEN", support: "OK", otherAdmin: "FORBIDDEN", none: "UNAUTHORIZED" },
      },
      // Hourly counts only (D199): a member may see how much their key is used, not the log.
      "usage.key": {
        call: (c) => c.usage.key({ organizationId: a.id, keyIds: [keyA.id] }),
        expected: { owner: "OK", adminA: "OK", member: "OK", support: "OK", otherAdmin: "FORBIDDEN", none: "UNAUTHORIZED" },
      },
      "audit.list": {
        call: (c) => c.audit.list({}),
        expected: { owner: "OK", adminA: "OK", member: "OK", support: "OK", otherAdmin: "OK", none: "UNAUTHORIZED" },
      },
      // One event's detail (D442): the same reach as the list; outside it, not found.
      "audit.get": {
        call: (c) => c.audit.get({ eventId: eventA.id }),
        expected: { owner: "OK", adminA: "OK", member: "NOT_FOUND", support: "OK", otherAdmin: "NOT_FOUND", none: "UNAUTHORIZED" },
      },
    };
    const seen: Record<string, Record<string, string>> = {};
    const wanted: Record<string, Record<string, string>> = {};
    for (const [name, procedure] of Object.entries(procedures)) {
      wanted[name] = procedure.expected;
      seen[name] = {};
      for (const role of Object.keys(callers) as Role[]) seen[name][role] = await outcomeOf(procedure.call(as(role)));
    }
    expect(seen).toEqual(wanted);

    // What audit.list answers is the viewer's: its events and the action names of those events only.
    const audit = async (role: Role) => {
      const page = await as(role).audit.list({});
      return {
        items: page.items
          .map((e) => e.action)
          .filter((x) => x.startsWith("matrix."))
          .sort(),
        actions: page.actions.filter((x) => x.startsWith("matrix.")),
      };
    };
    expect(await audit("member")).toEqual({ items: [], actions: [] });
    expect(await audit("adminA")).toEqual({ items: ["matrix.a"], actions: ["matrix.a"] });
    expect(await audit("otherAdmin")).toEqual({ items: ["matrix.b"], actions: ["matrix.b"] });
    expect(await audit("support")).toEqual({ items: ["matrix.a", "matrix.b", "matrix.instance"], actions: ["matrix.a", "matrix.b", "matrix.instance"] });
    expect((await as("member").audit.list({})).actions).toEqual([]);

    // What requests.list answers is the viewer's: another organization's admin gets none of A's requests.
    const listed = async (role: Role) => (await as(role).requests.list({})).items.map((r) => r.requestId);
    expect(await listed("adminA")).toContain(inA);
    expect(await listed("otherAdmin")).not.toContain(inA);
    expect(await listed("support")).toContain(inA);
  });
});
