import { mkdtemp, rm } from "node:fs/promises";
import { procedureDefinitions } from "@/server/api/trpc-internals";
import { tmpdir } from "node:os";
import path from "node:path";
import { runMigrations } from "graphile-worker";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resetEnvCache } from "@/env";
import { useTestDatabase } from "@/test/db";
import { AsUser, changesNothing, fixtures, type Caller, type World } from "./audit-completeness.fixtures";
import { createDashboardCaller, dashboardRouter } from "./root";

// Completeness of the audit trail (D202): every state-changing dashboard procedure writes exactly
// one audit event. The mutations are read from the router itself, so one added later fails this
// test until it has a fixture in audit-completeness.fixtures.ts (and then until it writes its event).

const database = useTestDatabase();

const mutations = procedureDefinitions(dashboardRouter)
  .filter(([, definition]) => definition.type === "mutation")
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
  return {
    db: database.prisma,
    owner: createDashboardCaller({ db: database.prisma, requestId: "req_test", sessionUserId: owner.id }),
    orgId: org.id,
    userId: owner.id,
  };
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
    expect(uncovered, "add a fixture to audit-completeness.fixtures.ts for each new dashboard mutation").toEqual([]);
  });

  it.each(mutations.filter((p) => p in fixtures))("%s writes exactly one audit event", async (procedurePath) => {
    const w = await world();
    const prepared = await fixtures[procedurePath]!(w);
    const call = prepared instanceof AsUser ? prepared : new AsUser(w.owner, w.userId, prepared);
    const before = await database.prisma.auditEvent.count();
    await procedureAt(call.caller, procedurePath)(call.input);
    const events = await database.prisma.auditEvent.findMany({ skip: before, orderBy: { createdAt: "asc" } });
    expect(await database.prisma.auditEvent.count(), `${procedurePath}: ${events.map((e) => e.action).join(", ")}`).toBe(before + 1);
    expect(events[0]?.actorId).toBe(call.userId);
  });
});
