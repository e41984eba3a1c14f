import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { runMigrations } from "graphile-worker";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resetEnvCache } from "@/env";
import { createUser } from "@/server/modules/users/create-user";
import { useTestDatabase } from "@/test/db";
import { createDashboardCaller, dashboardRouter } from "./root";

// Completeness of the audit trail (D203): every state-changing dashboard procedure writes exactly
// one audit event. The mutations are read from the router itself, so one added later fails this
// test until it has a fixture below (and then until it writes its event).

const database = useTestDatabase();
type Caller = ReturnType<typeof createDashboardCaller>;

interface World {
  owner: Caller;
  orgId: string;
  userId: string;
}

/** How to call each mutation once, successfully, as an instance owner: returns its input. */
const fixtures: Record<string, (w: World) => Promise<unknown>> = {
  "organizations.create": async () => ({ name: `Org ${Math.random()}` }),
  "organizations.delete": async (w) => {
    const org = await w.owner.organizations.create({ name: `Doomed ${Math.random()}` });
    return { organizationId: org.id, confirmName: org.name };
  },
  "keys.mint": async (w) => mintInput(w.orgId),
  "keys.revoke": async (w) => ({ keyId: (await w.owner.keys.mint(mintInput(w.orgId))).key.id, organizationId: w.orgId }),
  "members.add": async (w) => {
    const user = await database.prisma.user.create({ data: { email: `m-${Math.random()}@x.test`, passwordHash: "x" } });
    return { organizationId: w.orgId, email: user.email, role: "member" };
  },
  "members.setRole": async (w) => ({ organizationId: w.orgId, userId: (await newUser(w, w.orgId)).id, role: "admin" }),
  "members.remove": async (w) => ({ organizationId: w.orgId, userId: (await newUser(w, w.orgId)).id }),
  "users.create": async () => ({ email: `u-${Math.random()}@x.test`, instanceRole: "none", membership: null }),
  "sources.create": async (w) => ({ organizationId: w.orgId, source: { kind: "csv", name: "Prices", keyColumn: "sku" } }),
  "sources.uploadCsv": async (w) => ({ organizationId: w.orgId, sourceId: await csvSource(w), content: "sku,price\nA,1\n" }),
  "sources.approveDeletions": async (w) => {
    const sourceId = await csvSource(w);
    await database.prisma.dataSource.update({ where: { id: sourceId }, data: { declinedDeletions: 2 } });
    return { organizationId: w.orgId, sourceId };
  },
  "sources.syncNow": async (w) => {
    const sourceId = await csvSource(w);
    // Only a managed source syncs on request; the queue needs nothing else from it.
    await database.prisma.dataSource.update({ where: { id: sourceId }, data: { kind: "postgres_table" } });
    return { organizationId: w.orgId, sourceId };
  },
  "alerts.createChannel": async (w) => channelInput(w),
  "alerts.deleteChannel": async (w) => ({ channelId: (await w.owner.alerts.createChannel(channelInput(w))).id }),
  "alerts.testChannel": async (w) => ({ channelId: (await w.owner.alerts.createChannel(channelInput(w))).id }),
  "alerts.createRule": async (w) => ruleInput(w, (await w.owner.alerts.createChannel(channelInput(w))).id),
  "alerts.deleteRule": async (w) => {
    const channel = await w.owner.alerts.createChannel(channelInput(w));
    return { ruleId: (await w.owner.alerts.createRule(ruleInput(w, channel.id))).id };
  },
};

function channelInput(w: World) {
  return { organizationId: w.orgId, kind: "email" as const, name: `Ops ${Math.random()}`, to: ["ops@example.com"] };
}

function ruleInput(w: World, channelId: string) {
  return { organizationId: w.orgId, sourceId: null, channelId, remindAfterMinutes: null };
}

/** Mutations that change nothing in this service's state, each with the reason. */
const changesNothing: Record<string, string> = {
  "sources.testConnection": "only connects to the customer's system and reports; stores nothing",
};

function mintInput(organizationId: string) {
  return { organizationId, name: "k", environment: "live" as const, scopes: ["records:read"], expiresAt: null, rateLimit: 10 };
}

async function newUser(w: World, organizationId: string) {
  const email = `m-${Math.random()}@x.test`;
  return createUser(database.prisma, { email, instanceRole: "none", membership: { organizationId, role: "member" } }, { userId: w.userId });
}

async function csvSource(w: World): Promise<string> {
  return (await w.owner.sources.create({ organizationId: w.orgId, source: { kind: "csv", name: `S ${Math.random()}`, keyColumn: "sku" } })).id;
}

const mutations = Object.entries(dashboardRouter._def.procedures as unknown as Record<string, { _def: { type: string } }>)
  .filter(([, procedure]) => procedure._def.type === "mutation")
  .map(([procedurePath]) => procedurePath)
  .sort();

let dataDir: string;
const savedDataDir = process.env.GROUNDWORK_DATA_DIR;
beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), "gw-audit-completeness-"));
  process.env.GROUNDWORK_DATA_DIR = dataDir;
  resetEnvCache();
  await runMigrations({ connectionString: database.url, logger: undefined });
});
afterAll(async () => {
  if (savedDataDir === undefined) delete process.env.GROUNDWORK_DATA_DIR;
  else process.env.GROUNDWORK_DATA_DIR = savedDataDir;
  resetEnvCache();
  await rm(dataDir, { recursive: true, force: true });
});

async function world(): Promise<World> {
  const owner = await database.prisma.user.create({ data: { email: `owner-${Math.random()}@x.test`, passwordHash: "x", isInstanceOwner: true } });
  const org = await database.prisma.organization.create({ data: { name: `A ${Math.random()}` } });
  return { owner: createDashboardCaller({ db: database.prisma, requestId: "req_test", sessionUserId: owner.id }), orgId: org.id, userId: owner.id };
}

function procedureAt(caller: Caller, procedurePath: string): (input: unknown) => Promise<unknown> {
  const [group, name] = procedurePath.split(".") as [string, string];
  return (caller as unknown as Record<string, Record<string, (input: unknown) => Promise<unknown>>>)[group]![name]!;
}

describe("audit completeness of the dashboard", () => {
  it("finds the mutations by walking the router", () => {
    expect(mutations).toEqual(expect.arrayContaining(["keys.mint", "keys.revoke", "sources.syncNow"]));
  });

  it("has a fixture (or a reason it changes nothing) for every mutation", () => {
    const uncovered = mutations.filter((p) => !(p in fixtures) && !(p in changesNothing));
    expect(uncovered, "add a fixture to this test for each new dashboard mutation").toEqual([]);
  });

  it.each(mutations.filter((p) => p in fixtures))("%s writes exactly one audit event", async (procedurePath) => {
    const w = await world();
    const input = await fixtures[procedurePath]!(w);
    const before = await database.prisma.auditEvent.count();
    await procedureAt(w.owner, procedurePath)(input);
    const events = await database.prisma.auditEvent.findMany({ skip: before, orderBy: { createdAt: "asc" } });
    expect(await database.prisma.auditEvent.count(), `${procedurePath}: ${events.map((e) => e.action).join(", ")}`).toBe(before + 1);
    expect(events[0]?.actorId).toBe(w.userId);
  });
});
