import { describe, expect, it } from "vitest";
import { createDashboardCaller } from "@/server/api/dashboard/root";
import { loadViewer } from "@/server/modules/access/viewer";
import { createPrismaClient } from "@/server/db/client";
import type { PrismaClient } from "@/server/db/generated/client";
import { createTestDatabase, useTestDatabase } from "@/test/db";
import { createUser } from "./create-user";
import { changeOwnPassword, disableUser, enableUser, resetPassword, signOutEverywhere, unlockUser } from "./lifecycle";
import { endSession, openSession } from "./sessions";
import { verifySignIn } from "./sign-in";

const database = useTestDatabase();

async function people() {
  const db = database.prisma;
  const ownerRow = await db.user.create({ data: { email: `owner-${Math.random()}@x.test`, passwordHash: "x", isInstanceOwner: true } });
  const member = await createUser(db, { email: `m-${Math.random().toString(36).slice(2)}@x.test` }, { type: "user", id: ownerRow.id });
  return { owner: { type: "user" as const, id: ownerRow.id }, ownerId: ownerRow.id, member };
}

async function makeOwner(db: PrismaClient): Promise<string> {
  return (await db.user.create({ data: { email: `owner-${Math.random()}@x.test`, passwordHash: "x", isInstanceOwner: true } })).id;
}

async function session(userId: string) {
  const user = await database.prisma.user.findUniqueOrThrow({ where: { id: userId } });
  const id = await openSession(database.prisma, { userId, version: user.sessionVersion, address: "127.0.0.1", maxAgeSeconds: 3600 });
  return { id, version: user.sessionVersion };
}

const live = async (userId: string, s: { id: string; version: number }) => (await loadViewer(database.prisma, userId, s)) !== null;
const events = (action: string, targetId: string) => database.prisma.auditEvent.count({ where: { action, targetId } });

describe("sessions and the account lifecycle", () => {
  it("a session ends at sign-out; other sessions of the user stay", async () => {
    const { member } = await people();
    const [a, b] = [await session(member.id), await session(member.id)];
    expect(await live(member.id, a)).toBe(true);
    await endSession(database.prisma, a.id);
    expect(await live(member.id, a)).toBe(false);
    expect(await live(member.id, b)).toBe(true);
    expect(await live(member.id, { id: "not-a-session", version: b.version })).toBe(false);
  });

  it("disable ends every session at once and refuses sign-in; enable lets the user sign in again", async () => {
    const { owner, member } = await people();
    const s = await session(member.id);
    expect(await disableUser(database.prisma, owner, member.id)).toEqual({ sessionsEnded: 1 });
    expect(await live(member.id, s)).toBe(false);
    expect(await verifySignIn(database.prisma, { email: member.email, password: member.password, address: "127.0.0.1" })).toMatchObject({ ok: false });
    await expect(disableUser(database.prisma, owner, member.id)).rejects.toMatchObject({ code: "conflict" });
    await enableUser(database.prisma, owner, member.id);
    expect(await verifySignIn(database.prisma, { email: member.email, password: member.password, address: "127.0.0.1" })).toMatchObject({ ok: true });
    // The old session stays ended: its version is behind.
    expect(await live(member.id, s)).toBe(false);
    expect([await events("user.disabled", member.id), await events("user.enabled", member.id)]).toEqual([1, 1]);
  }, 30_000);

  it("an owner cannot disable themselves or the last enabled owner", async () => {
    // A database of its own, so the owners are exactly the two this test makes (not those of earlier tests).
    const own = await createTestDatabase({ migrated: true });
    const db = createPrismaClient(own.url);
    try {
      const [first, second] = [await makeOwner(db), await makeOwner(db)];
      await expect(disableUser(db, { type: "user", id: first }, first)).rejects.toMatchObject({ code: "bad_request" });
      await expect(disableUser(db, { type: "cli", id: null }, first)).resolves.toBeDefined();
      await expect(disableUser(db, { type: "cli", id: null }, second)).rejects.toMatchObject({ code: "conflict" });
      expect(await db.user.count({ where: { isInstanceOwner: true, disabledAt: null } })).toBe(1);
    } finally {
      await db.$disconnect();
      await own.drop();
    }
  });

  it("reset: a new password shown once, the old one refused, sessions ended, locks lifted", async () => {
    const { owner, member } = await people();
    const s = await session(member.id);
    for (let i = 0; i < 5; i++) await verifySignIn(database.prisma, { email: member.email, password: `wrong-${i}`, address: "203.0.113.5" });
    const reset = await resetPassword(database.prisma, owner, member.id);
    expect(reset.password).toMatch(/^[A-Za-z0-9]{20}$/);
    expect(await live(member.id, s)).toBe(false);
    const from = (password: string) => verifySignIn(database.prisma, { email: member.email, password, address: "203.0.113.5" });
    expect(await from(member.password)).toMatchObject({ ok: false, reason: "invalid" });
    expect(await from(reset.password)).toMatchObject({ ok: true });
    const event = await database.prisma.auditEvent.findFirstOrThrow({ where: { action: "user.password_reset", targetId: member.id } });
    expect(JSON.stringify(event.metadata)).not.toContain(reset.password);
  }, 30_000);

  it("unlock lifts a lock from every address", async () => {
    const { owner, member } = await people();
    for (const address of ["203.0.113.6", "203.0.113.7"]) {
      for (let i = 0; i < 5; i++) await verifySignIn(database.prisma, { email: member.email, password: `w${i}`, address });
    }
    expect(await verifySignIn(database.prisma, { email: member.email, password: member.password, address: "203.0.113.6" })).toMatchObject({ reason: "locked" });
    expect(await unlockUser(database.prisma, owner, member.id)).toEqual({ locksCleared: 3 });
    expect(await verifySignIn(database.prisma, { email: member.email, password: member.password, address: "203.0.113.6" })).toMatchObject({ ok: true });
    expect(await events("user.unlocked", member.id)).toBe(1);
  }, 60_000);

  it("change own password needs the current one; it and sign-out-everywhere end every session", async () => {
    const { member } = await people();
    const s = await session(member.id);
    await expect(changeOwnPassword(database.prisma, member.id, { currentPassword: "nope", newPassword: "a-new-password-1" })).rejects.toMatchObject({
      code: "bad_request",
    });
    expect(await live(member.id, s)).toBe(true);
    await changeOwnPassword(database.prisma, member.id, { currentPassword: member.password, newPassword: "a-new-password-1" });
    expect(await live(member.id, s)).toBe(false);
    expect(await verifySignIn(database.prisma, { email: member.email, password: "a-new-password-1", address: "127.0.0.1" })).toMatchObject({ ok: true });
    const t = await session(member.id);
    expect(await signOutEverywhere(database.prisma, member.id)).toEqual({ sessionsEnded: 1 });
    expect(await live(member.id, t)).toBe(false);
    expect([await events("user.password_changed", member.id), await events("user.signed_out_everywhere", member.id)]).toEqual([1, 1]);
  }, 30_000);

  it("only instance owners reach the lifecycle procedures; a dead session reaches none", async () => {
    const { ownerId, member } = await people();
    const ownerSession = await session(ownerId);
    const memberSession = await session(member.id);
    const as = (userId: string, s: { id: string; version: number }) =>
      createDashboardCaller({ db: database.prisma, requestId: "req_test", sessionUserId: userId, session: s });
    await expect(as(member.id, memberSession).users.disable({ userId: ownerId })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(as(member.id, memberSession).users.resetPassword({ userId: ownerId })).rejects.toMatchObject({ code: "FORBIDDEN" });
    expect((await as(ownerId, ownerSession).users.list({ limit: 100 })).items.find((u) => u.id === member.id)).toMatchObject({
      openSessions: 1,
      lockedAddresses: 0,
    });
    await as(ownerId, ownerSession).users.disable({ userId: member.id });
    await expect(as(member.id, memberSession).viewer.me()).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    await as(ownerId, ownerSession).users.enable({ userId: member.id });
    await expect(as(member.id, memberSession).viewer.me()).rejects.toMatchObject({ code: "UNAUTHORIZED" });
  }, 30_000);

  it("pages every account by email with a cursor, none twice and none left out", async () => {
    const { ownerId } = await people();
    const ownerSession = await session(ownerId);
    const caller = createDashboardCaller({ db: database.prisma, requestId: "req_test", sessionUserId: ownerId, session: ownerSession });
    for (let i = 0; i < 5; i += 1) await database.prisma.user.create({ data: { email: `page-${i}-${crypto.randomUUID()}@example.com`, passwordHash: "x" } });
    const all = await database.prisma.user.findMany({ orderBy: [{ email: "asc" }, { id: "asc" }], select: { email: true } });
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await caller.users.list({ limit: 2, cursor });
      expect(page.items.length).toBeLessThanOrEqual(2);
      seen.push(...page.items.map((user) => user.email));
      cursor = page.nextCursor ?? undefined;
      pages += 1;
    } while (cursor);
    expect(seen).toEqual(all.map((user) => user.email));
    expect(pages).toBe(Math.ceil(all.length / 2));
    await expect(caller.users.list({ limit: 2, cursor: "not-a-cursor" })).rejects.toMatchObject({ code: "BAD_REQUEST" });
  }, 30_000);
});
