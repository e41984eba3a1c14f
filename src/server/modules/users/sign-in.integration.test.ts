import { describe, expect, it } from "vitest";
import { useTestDatabase } from "@/test/db";
import { createUser } from "./create-user";
import { SIGN_IN_LOCK_MINUTES, SIGN_IN_MAX_FAILURES, verifySignIn } from "./sign-in";
import { BUDGETS } from "./sign-in-budgets";

const database = useTestDatabase();

async function account(instanceRole: "none" | "owner" = "none") {
  const owner = await database.prisma.user.create({ data: { email: `o-${Math.random()}@x.test`, passwordHash: "x", isInstanceOwner: true } });
  return createUser(database.prisma, { email: `u-${Math.random().toString(36).slice(2)}@x.test`, instanceRole }, { type: "user", id: owner.id });
}

const from = (address: string) => (email: string, password: string, now?: Date) => verifySignIn(database.prisma, { email, password, address }, now);

describe("sign-in", () => {
  it("accepts the right password (any email case) and refuses a wrong one alike for unknown emails", async () => {
    const user = await account();
    const here = from("192.0.2.1");
    expect(await here(user.email.toUpperCase(), user.password)).toMatchObject({ ok: true, userId: user.id });
    expect(await here(user.email, "wrong")).toEqual({ ok: false, reason: "invalid" });
    expect(await here("nobody@x.test", "wrong")).toEqual({ ok: false, reason: "invalid" });
  });

  it("an email Postgres cannot store (U+0000, a lone surrogate) is an unknown email, counted and audited escaped, not an error", async () => {
    const user = await account();
    const here = from("192.0.2.77");
    expect(await here(`${user.email}\u0000`, user.password)).toEqual({ ok: false, reason: "invalid" });
    expect(await here("x\ud800@x.test", "wrong")).toEqual({ ok: false, reason: "invalid" });
    const failures = await database.prisma.auditEvent.findMany({
      where: { action: "auth.sign_in_failed", targetType: "email", targetId: { in: [`${user.email}\\u0000`, "x\\ud800@x.test"] } },
    });
    expect(failures).toHaveLength(2);
  });

  it("locks an account for one address after five failures there, and unlocks after the lock", async () => {
    const user = await account();
    const here = from("192.0.2.2");
    const start = new Date();
    for (let i = 1; i < SIGN_IN_MAX_FAILURES; i++) expect((await here(user.email, `wrong-${i}`, start)).ok).toBe(false);
    expect(await here(user.email, "wrong-5", start)).toEqual({ ok: false, reason: "locked", retryAfterSeconds: SIGN_IN_LOCK_MINUTES * 60 });
    expect(await here(user.email, user.password, new Date(start.getTime() + 60_000))).toMatchObject({ reason: "locked" });
    const after = new Date(start.getTime() + (SIGN_IN_LOCK_MINUTES * 60 + 1) * 1000);
    expect(await here(user.email, user.password, after)).toMatchObject({ ok: true, userId: user.id });
  }, 60_000);

  it("ten wrong passwords for the owner from 127.0.0.2 leave the owner able to sign in at once from 127.0.0.1", async () => {
    const owner = await account("owner");
    const stranger = from("127.0.0.2");
    const results = [];
    for (let i = 0; i < 10; i++) results.push(await stranger(owner.email, `guess-${i}`));
    expect(results.slice(0, 4).every((r) => !r.ok && r.reason === "invalid")).toBe(true);
    expect(results.slice(4).every((r) => !r.ok && r.reason === "locked")).toBe(true);
    const started = performance.now();
    expect(await from("127.0.0.1")(owner.email, owner.password)).toMatchObject({ ok: true, userId: owner.id });
    // "At once": no lock and no slow-down on a right password (an argon2 verify is ~25-150 ms).
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(await stranger(owner.email, owner.password)).toMatchObject({ ok: false, reason: "locked" });
    // Every failure and the lock are in the audit trail with the address.
    const failures = await database.prisma.auditEvent.findMany({ where: { action: "auth.sign_in_failed", targetId: owner.id } });
    expect(failures).toHaveLength(SIGN_IN_MAX_FAILURES);
    expect(failures.every((event) => (event.metadata as { address: string }).address === "127.0.0.2")).toBe(true);
    const locks = await database.prisma.auditEvent.findMany({ where: { action: "auth.sign_in_locked", targetId: owner.id } });
    expect(locks.map((event) => (event.metadata as { scope: string }).scope)).toEqual(["account_address"]);
  }, 60_000);

  it("100 wrong passwords over 50 emails from one address: the first 20 are checked, the other 80 refused", async () => {
    const sprayer = from("198.51.100.7");
    const emails = Array.from({ length: 50 }, (_, i) => `spray-${i}@x.test`);
    const outcomes = { invalid: 0, address_locked: 0, locked: 0, busy: 0, ok: 0 };
    for (let i = 0; i < 100; i++) {
      const result = await sprayer(emails[i % 50]!, `Winter2026-${i}`);
      outcomes[result.ok ? "ok" : result.reason]++;
    }
    expect(outcomes).toEqual({ invalid: BUDGETS.address.maxFailures - 1, address_locked: 100 - BUDGETS.address.maxFailures + 1, locked: 0, busy: 0, ok: 0 });
    // The refused ones never reach a password check: a right password from that address is refused too...
    const user = await account();
    expect(await sprayer(user.email, user.password)).toMatchObject({ ok: false, reason: "address_locked" });
    // ...while everyone else signs in.
    expect(await from("198.51.100.8")(user.email, user.password)).toMatchObject({ ok: true });
    const lock = await database.prisma.auditEvent.findFirstOrThrow({
      where: { action: "auth.sign_in_locked", targetType: "address", targetId: "198.51.100.7" },
    });
    expect(lock.metadata).toMatchObject({ scope: "address", address: "198.51.100.7" });
  }, 120_000);

  it("parallel guesses from one address cannot slip past the pair limit", async () => {
    const user = await account();
    const here = from("192.0.2.3");
    const results = await Promise.all(Array.from({ length: 8 }, (_, i) => here(user.email, `guess-${i}`)));
    expect(results.filter((r) => !r.ok && r.reason === "locked").length).toBeGreaterThanOrEqual(4);
    expect(await here(user.email, user.password)).toMatchObject({ reason: "locked" });
  }, 60_000);

  it("refuses a disabled account (audited as such, answered as any failure)", async () => {
    const user = await account();
    await database.prisma.user.update({ where: { id: user.id }, data: { disabledAt: new Date() } });
    expect(await from("192.0.2.4")(user.email, user.password)).toEqual({ ok: false, reason: "invalid" });
    const event = await database.prisma.auditEvent.findFirstOrThrow({ where: { action: "auth.sign_in_failed", targetId: user.id } });
    expect(event.metadata).toMatchObject({ reason: "disabled", address: "192.0.2.4" });
  });
});
