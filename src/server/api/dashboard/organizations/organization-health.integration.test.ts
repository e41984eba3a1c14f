import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { createDashboardCaller } from "@/server/api/dashboard/root";
import { CLI_OPERATOR } from "@/server/modules/access/acting-principal";
import { mintApiKey } from "@/server/modules/api-keys/mint-key";
import { createPostgresSink } from "@/server/modules/request-log/postgres-sink";
import { createUser } from "@/server/modules/users/create-user";
import { cliRunner } from "@/test/cli-process";
import { useTestDatabase } from "@/test/db";
import { outcomeOf } from "@/test/trpc-outcome";

const database = useTestDatabase();
let dataDir: string;
beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), "gw-cli-health-"));
});
const { cli } = cliRunner(() => ({ DATABASE_URL: database.url, GROUNDWORK_DATA_DIR: dataDir, GROUNDWORK_ENCRYPTION_KEY: "" }));

async function arrange() {
  const db = database.prisma;
  const tag = Math.random().toString(36).slice(2, 8);
  const owner = await db.user.create({ data: { email: `owner-${tag}@h.test`, passwordHash: "x", isInstanceOwner: true } });
  const a = await db.organization.create({ data: { name: "A" } });
  const b = await db.organization.create({ data: { name: "B" } });
  const by = { type: "user" as const, id: owner.id };
  const adminA = await createUser(db, { email: `admin-a-${tag}@h.test`, membership: { organizationId: a.id, role: "admin" } }, by);
  const memberA = await createUser(db, { email: `member-a-${tag}@h.test`, membership: { organizationId: a.id, role: "member" } }, by);
  const support = await createUser(db, { email: `support-${tag}@h.test`, instanceRole: "support" }, by);
  const nobody = await createUser(db, { email: `nobody-${tag}@h.test` }, by);
  await db.dataSource.create({ data: { organizationId: a.id, name: "broken", kind: "csv", columns: [], syncStatus: "error" } });
  await db.dataSource.create({ data: { organizationId: b.id, name: "held", kind: "csv", columns: [], syncStatus: "needs_attention" } });
  const keyB = await mintApiKey(db, CLI_OPERATOR, { name: "b", scopes: "records:read", organizationId: b.id });
  await createPostgresSink(() => db).writeBatch([
    {
      requestId: `req_${tag}${"0".repeat(18)}`,
      occurredAt: new Date(),
      surface: "api",
      userId: null,
      organizationId: b.id,
      apiKeyId: keyB.id,
      apiKeyPrefix: null,
      method: "GET",
      route: "r",
      status: 500,
      errorCode: null,
      errorMessage: null,
      durationMs: 1,
      responseBytes: 1,
      clientAddress: null,
      userAgent: null,
      query: null,
    },
  ]);
  const as = (userId: string | null) => createDashboardCaller({ db, requestId: "req_test", sessionUserId: userId });
  return { a, b, owner: as(owner.id), adminA: as(adminA.id), memberA: as(memberA.id), support: as(support.id), nobody: as(nobody.id), anonymous: as(null) };
}

/** The auth matrix of organizations.health (issue 44): the reach is the server's, whatever ids are asked. */
describe("organizations.health: the auth matrix", () => {
  it("no session is refused; each role reads its own reach; a read writes no audit event", async () => {
    const s = await arrange();
    const both = { organizationIds: [s.a.id, s.b.id] };
    const ids = (result: { items: { organizationId: string }[] }) => result.items.map((i) => i.organizationId);
    const auditBefore = await database.prisma.auditEvent.count();

    expect(await outcomeOf(s.anonymous.organizations.health(both))).toBe("UNAUTHORIZED");
    for (const everyone of [s.owner, s.support]) {
      const health = await everyone.organizations.health(both);
      expect(ids(health)).toEqual([s.a.id, s.b.id]);
      expect(health.totals).toMatchObject({ organizations: 2, sources: { inTrouble: 2 }, requests: { total: 1, errors: 1 } });
    }
    const admin = await s.adminA.organizations.health(both);
    expect(ids(admin)).toEqual([s.a.id]);
    expect(admin.totals).toMatchObject({ organizations: 1, sources: { error: 1, needsAttention: 0 }, requests: { total: 0 } });
    const member = await s.memberA.organizations.health(both);
    expect(ids(member)).toEqual([s.a.id]);
    expect(member.items[0]?.requests).toBeNull();
    expect(member.totals.requests).toBeNull();
    const nobody = await s.nobody.organizations.health(both);
    expect(nobody.items).toEqual([]);
    expect(nobody.totals.organizations).toBe(0);
    expect(await outcomeOf(s.owner.organizations.health({ organizationIds: Array.from({ length: 101 }, (_, i) => `o${i}`) }))).toBe("BAD_REQUEST");
    expect(await database.prisma.auditEvent.count()).toBe(auditBefore);
  });

  it("has a CLI twin: org health --json, from the same function, for every organization or one", { timeout: 60_000 }, async () => {
    const s = await arrange();
    const all = await cli(["org", "health", "--json"]);
    expect(all.code, all.stderr).toBe(0);
    const parsed = JSON.parse(all.stdout) as {
      organizations: { id: string; sources: { in_trouble: number }; requests: { by_class: Record<string, number>; error_rate: number | null } | null }[];
      requests_since: string;
      records_since: string;
    };
    const b = parsed.organizations.find((o) => o.id === s.b.id);
    expect(b).toMatchObject({ sources: { in_trouble: 1 }, requests: { by_class: { "5xx": 1 }, error_rate: 1 } });
    expect(parsed.records_since).toMatch(/T00:00:00\.000Z$/);
    const one = await cli(["org", "health", "--org", s.a.id, "--json"]);
    expect((JSON.parse(one.stdout) as { organizations: { id: string }[] }).organizations.map((o) => o.id)).toEqual([s.a.id]);
    const missing = await cli(["org", "health", "--org", "nope", "--json"]);
    expect(missing.code).not.toBe(0);
  });
});
