import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { runMigrations } from "graphile-worker";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resetEnvCache } from "@/env";
import { createDashboardCaller } from "@/server/api/dashboard/root";
import { actingInOrganization, CLI_OPERATOR } from "@/server/modules/access/acting-principal";
import { createUser } from "@/server/modules/users/create-user";
import { startWorker } from "@/worker/start-worker";
import { createTestApi, mintTestKey } from "@/test/api-client";
import { cliRunner } from "@/test/cli-process";
import { useTestDatabase } from "@/test/db";
import { outcomeOf } from "@/test/trpc-outcome";
import { getApiKey, listApiKeys } from "./list-keys";
import { revokeApiKey } from "./revoke-key";
import { rotateApiKey } from "./rotate-key";
import { cancelKeyRevocation, parseDuration, revokeDueKeys, scheduleKeyRevocation } from "./scheduled-revocation";

const database = useTestDatabase();
const db = () => database.prisma;
const call = createTestApi(db);
let orgId: string;
let dataDir: string;
const { cli } = cliRunner(() => ({ DATABASE_URL: database.url, GROUNDWORK_DATA_DIR: dataDir, GROUNDWORK_ENCRYPTION_KEY: "" }));

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), "gw-key-schedule-"));
  orgId = (await db().organization.create({ data: { name: "Schedules Inc" } })).id;
  await runMigrations({ connectionString: database.url, logger: undefined });
});
afterAll(() => rm(dataDir, { recursive: true, force: true }));

const key = () => mintTestKey(db(), { organizationId: null, scopes: ["organizations:read"] });
const events = (keyId: string) => db().auditEvent.findMany({ where: { targetId: keyId }, orderBy: { createdAt: "asc" } });

describe("scheduled revocation", () => {
  it("is stored, audited, listed, and leaves the key working until its time", async () => {
    const k = await key();
    const at = new Date(Date.now() + 3600_000);
    await scheduleKeyRevocation(db(), CLI_OPERATOR, k.id, at);
    const summary = await getApiKey(db(), CLI_OPERATOR, k.id);
    expect(summary).toMatchObject({ state: "active", revokeAt: at, revokedAt: null });
    const listed = await listApiKeys(db(), CLI_OPERATOR, {}, { limit: 100 });
    expect(listed.items.find((item) => item.id === k.id)?.revokeAt).toEqual(at);
    expect((await call("GET", "/organizations", { token: k.token })).status).toBe(200);
    const [event] = (await events(k.id)).filter((e) => e.action === "api_key.revocation_scheduled");
    expect(event?.metadata).toMatchObject({ revoke_at: at.toISOString(), previous_revoke_at: null });
  });

  it("refuses a time in the past, more than a year ahead, or a revoked key", async () => {
    const k = await key();
    await expect(scheduleKeyRevocation(db(), CLI_OPERATOR, k.id, new Date(Date.now() - 1000))).rejects.toMatchObject({ code: "bad_request" });
    await expect(scheduleKeyRevocation(db(), CLI_OPERATOR, k.id, new Date(Date.now() + 400 * 86_400_000))).rejects.toMatchObject({ code: "bad_request" });
    await revokeApiKey(db(), CLI_OPERATOR, k.id);
    await expect(scheduleKeyRevocation(db(), CLI_OPERATOR, k.id, new Date(Date.now() + 60_000))).rejects.toMatchObject({ code: "conflict" });
  });

  it("keeps a key of another organization out of reach", async () => {
    const other = await db().organization.create({ data: { name: "Other" } });
    const k = await mintTestKey(db(), { organizationId: other.id, scopes: ["records:read"] });
    const outsider = actingInOrganization(orgId, { type: "user", id: null });
    await expect(scheduleKeyRevocation(db(), outsider, k.id, new Date(Date.now() + 60_000))).rejects.toMatchObject({ code: "not_found" });
    await expect(cancelKeyRevocation(db(), outsider, k.id)).rejects.toMatchObject({ code: "not_found" });
    expect((await db().apiKey.findUniqueOrThrow({ where: { id: k.id } })).revokeAt).toBeNull();
  });

  it("can be cancelled (audited); cancelling nothing records nothing; after its time it cannot be", async () => {
    const k = await key();
    await scheduleKeyRevocation(db(), CLI_OPERATOR, k.id, new Date(Date.now() + 60_000));
    const cancelled = await cancelKeyRevocation(db(), CLI_OPERATOR, k.id);
    expect(cancelled.cancelled).toBeInstanceOf(Date);
    expect((await getApiKey(db(), CLI_OPERATOR, k.id)).revokeAt).toBeNull();
    expect((await events(k.id)).map((e) => e.action)).toEqual(["api_key.minted", "api_key.revocation_scheduled", "api_key.revocation_cancelled"]);
    expect((await cancelKeyRevocation(db(), CLI_OPERATOR, k.id)).cancelled).toBeNull();
    expect(await events(k.id)).toHaveLength(3);

    await scheduleKeyRevocation(db(), CLI_OPERATOR, k.id, new Date(Date.now() + 60_000));
    await expect(cancelKeyRevocation(db(), CLI_OPERATOR, k.id, new Date(Date.now() + 120_000))).rejects.toMatchObject({ code: "conflict" });
  });

  it("is refused by the API once its time has passed, before the worker has run", async () => {
    const k = await key();
    await scheduleKeyRevocation(db(), CLI_OPERATOR, k.id, new Date(Date.now() + 1000));
    expect((await call("GET", "/organizations", { token: k.token })).status).toBe(200);
    // The time passes with no worker: revoked_at is still unset, yet the key is refused.
    await db().apiKey.update({ where: { id: k.id }, data: { revokeAt: new Date(Date.now() - 10) } });
    const refused = await call("GET", "/organizations", { token: k.token });
    expect(refused.status).toBe(401);
    expect(refused.text).toContain("revoked");
    expect((await db().apiKey.findUniqueOrThrow({ where: { id: k.id } })).revokedAt).toBeNull();
    expect(await getApiKey(db(), CLI_OPERATOR, k.id)).toMatchObject({ state: "revoked", revokeAt: null });
  });

  it("the sweep revokes what is due, once, audited as revoked by schedule", async () => {
    const due = await key();
    const later = await key();
    const dueAt = new Date(Date.now() + 1000);
    await scheduleKeyRevocation(db(), CLI_OPERATOR, due.id, dueAt);
    await scheduleKeyRevocation(db(), CLI_OPERATOR, later.id, new Date(Date.now() + 3600_000));
    const swept = await revokeDueKeys(db(), new Date(Date.now() + 2000));
    expect(swept).toContain(due.id);
    expect(swept).not.toContain(later.id);
    expect((await db().apiKey.findUniqueOrThrow({ where: { id: due.id } })).revokedAt).toEqual(dueAt);
    expect((await db().apiKey.findUniqueOrThrow({ where: { id: later.id } })).revokedAt).toBeNull();
    const revoked = (await events(due.id)).filter((e) => e.action === "api_key.revoked");
    expect(revoked).toHaveLength(1);
    expect(revoked[0]).toMatchObject({ actorType: "system", metadata: expect.objectContaining({ reason: "scheduled" }) });
    expect(await revokeDueKeys(db(), new Date(Date.now() + 2000))).not.toContain(due.id);
  });

  it("the worker revokes the key on time", async () => {
    const saved = process.env.GROUNDWORK_SYNC_TICK_SECONDS;
    process.env.GROUNDWORK_SYNC_TICK_SECONDS = "1";
    resetEnvCache();
    const k = await key();
    const at = new Date(Date.now() + 1500);
    await scheduleKeyRevocation(db(), CLI_OPERATOR, k.id, at);
    const worker = await startWorker({ databaseUrl: database.url, log: () => undefined, dataDir, pollInterval: 100 });
    try {
      await expect.poll(async () => (await db().apiKey.findUniqueOrThrow({ where: { id: k.id } })).revokedAt, { timeout: 15_000, interval: 200 }).toEqual(at);
      const crontabs = await db().$queryRaw<{ identifier: string }[]>`SELECT identifier FROM graphile_worker._private_known_crontabs`;
      expect(crontabs.map((c) => c.identifier)).toContain("key_revocation_tick");
    } finally {
      await worker.stop();
      if (saved === undefined) delete process.env.GROUNDWORK_SYNC_TICK_SECONDS;
      else process.env.GROUNDWORK_SYNC_TICK_SECONDS = saved;
      resetEnvCache();
    }
  });

  it("a rotation can schedule the old key's revocation", async () => {
    const old = await key();
    const before = Date.now();
    const rotated = await rotateApiKey(db(), CLI_OPERATOR, old.id, { name: "new", scopes: "organizations:read", organizationId: null }, "24h");
    expect(rotated.oldKeyRevokeAt!.getTime() - before).toBeGreaterThanOrEqual(24 * 3600_000 - 5);
    expect((await getApiKey(db(), CLI_OPERATOR, old.id)).revokeAt).toEqual(rotated.oldKeyRevokeAt);
    await revokeApiKey(db(), CLI_OPERATOR, old.id);
    const count = await db().apiKey.count();
    await expect(rotateApiKey(db(), CLI_OPERATOR, old.id, { name: "again", scopes: "organizations:read", organizationId: null }, null)).rejects.toMatchObject({
      code: "conflict",
    });
    expect(await db().apiKey.count()).toBe(count);
  });

  it("reads durations for the CLI", () => {
    expect(parseDuration("24h")).toBe(86_400_000);
    expect(parseDuration("90m")).toBe(5_400_000);
    expect(parseDuration("7d")).toBe(604_800_000);
    expect(parseDuration("0h")).toBeNull();
    expect(parseDuration("soon")).toBeNull();
  });
});

describe("the dashboard's and the CLI's doors", () => {
  it("check the role on the server: admins of the key's organization and owners only", async () => {
    const owner = await db().user.create({ data: { email: `o-${Math.random()}@x.test`, passwordHash: "x", isInstanceOwner: true } });
    const make = (input: Parameters<typeof createUser>[1]) => createUser(db(), input, { type: "user", id: owner.id });
    const admin = await make({ email: `a-${Math.random()}@x.test`, membership: { organizationId: orgId, role: "admin" } });
    const member = await make({ email: `m-${Math.random()}@x.test`, membership: { organizationId: orgId, role: "member" } });
    const support = await make({ email: `s-${Math.random()}@x.test`, instanceRole: "support" });
    const as = (userId: string) => createDashboardCaller({ db: db(), requestId: "req_test", sessionUserId: userId });
    const k = await mintTestKey(db(), { organizationId: orgId, scopes: ["records:read"] });
    const input = { organizationId: orgId, keyId: k.id, when: { in: "24h" as const } };
    expect(await outcomeOf(as(member.id).keys.scheduleRevocation(input))).toBe("FORBIDDEN");
    expect(await outcomeOf(as(support.id).keys.scheduleRevocation(input))).toBe("FORBIDDEN");
    expect(await outcomeOf(as(member.id).keys.cancelRevocation({ organizationId: orgId, keyId: k.id }))).toBe("FORBIDDEN");
    const scheduled = await as(admin.id).keys.scheduleRevocation(input);
    expect(scheduled.revokeAt).not.toBeNull();
    expect(await outcomeOf(as(admin.id).keys.scheduleRevocation({ ...input, when: { at: new Date(Date.now() - 60_000).toISOString() } }))).toBe("BAD_REQUEST");
    expect(await outcomeOf(as(support.id).keys.cancelRevocation({ organizationId: orgId, keyId: k.id }))).toBe("FORBIDDEN");
    expect((await as(owner.id).keys.cancelRevocation({ organizationId: orgId, keyId: k.id })).revokeAt).toBeNull();
    const rotated = await as(admin.id).keys.mint({
      organizationId: orgId,
      name: "next",
      environment: "live",
      scopes: ["records:read"],
      expiresAt: null,
      rateLimit: 10,
      rotates: { keyId: k.id, revokeOldIn: "1h" },
    });
    expect(rotated.key.id).not.toBe(k.id);
    expect((await as(admin.id).keys.get({ organizationId: orgId, keyId: k.id })).revokeAt).not.toBeNull();
  });

  it("key revoke --in / --at and key cancel-revocation, with --json", async () => {
    const k = await key();
    const scheduled = await cli(["key", "revoke", k.id, "--in", "24h", "--json"]);
    expect(scheduled.code, scheduled.stderr).toBe(0);
    const body = JSON.parse(scheduled.stdout) as { revoke_at: string };
    expect(new Date(body.revoke_at).getTime()).toBeGreaterThan(Date.now() + 23 * 3600_000);
    const at = new Date(Math.floor(Date.now() / 1000) * 1000 + 30 * 86_400_000).toISOString();
    const moved = await cli(["key", "revoke", k.id, "--at", at, "--json"]);
    expect(moved.code, moved.stderr).toBe(0);
    expect(JSON.parse(moved.stdout)).toMatchObject({ id: k.id, revoke_at: at });
    const both = await cli(["key", "revoke", k.id, "--at", at, "--in", "1h"]);
    expect(both.code).not.toBe(0);
    const cancelled = await cli(["key", "cancel-revocation", k.id, "--json"]);
    expect(cancelled.code, cancelled.stderr).toBe(0);
    expect(JSON.parse(cancelled.stdout)).toMatchObject({ id: k.id, cancelled_revoke_at: at });
    expect((await db().apiKey.findUniqueOrThrow({ where: { id: k.id } })).revokeAt).toBeNull();
  });
});
