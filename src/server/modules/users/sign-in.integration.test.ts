import { describe, expect, it } from "vitest";
import { useTestDatabase } from "@/test/db";
import { createUser } from "./create-user";
import { SIGN_IN_LOCK_MINUTES, SIGN_IN_MAX_FAILURES, verifySignIn } from "./sign-in";

const database = useTestDatabase();

async function account() {
  const owner = await database.prisma.user.create({ data: { email: `o-${Math.random()}@x.test`, passwordHash: "x", isInstanceOwner: true } });
  return createUser(database.prisma, { email: `u-${Math.random().toString(36).slice(2)}@x.test` }, { userId: owner.id });
}

describe("sign-in", () => {
  it("accepts the right password (any email case) and refuses a wrong one alike for unknown emails", async () => {
    const user = await account();
    expect(await verifySignIn(database.prisma, user.email.toUpperCase(), user.password)).toEqual({ ok: true, userId: user.id });
    expect(await verifySignIn(database.prisma, user.email, "wrong")).toEqual({ ok: false, reason: "invalid" });
    expect(await verifySignIn(database.prisma, "nobody@x.test", "wrong")).toEqual({ ok: false, reason: "invalid" });
  });

  it("locks after five failures in a row, refuses even the right password, and unlocks after the lock", async () => {
    const user = await account();
    const start = new Date();
    for (let i = 1; i < SIGN_IN_MAX_FAILURES; i++) {
      expect((await verifySignIn(database.prisma, user.email, `wrong-${i}`, start)).ok).toBe(false);
    }
    const fifth = await verifySignIn(database.prisma, user.email, "wrong-5", start);
    expect(fifth).toEqual({ ok: false, reason: "locked", retryAfterSeconds: SIGN_IN_LOCK_MINUTES * 60 });
    expect(await verifySignIn(database.prisma, user.email, user.password, new Date(start.getTime() + 60_000))).toMatchObject({ reason: "locked" });
    const after = new Date(start.getTime() + (SIGN_IN_LOCK_MINUTES * 60 + 1) * 1000);
    expect(await verifySignIn(database.prisma, user.email, user.password, after)).toEqual({ ok: true, userId: user.id });
  }, 30_000);

  it("a success clears the count, and parallel guesses cannot slip past the limit", async () => {
    const user = await account();
    await verifySignIn(database.prisma, user.email, "wrong");
    await verifySignIn(database.prisma, user.email, user.password);
    expect(await database.prisma.signInThrottle.count({ where: { email: user.email } })).toBe(0);
    const results = await Promise.all(Array.from({ length: 8 }, (_, i) => verifySignIn(database.prisma, user.email, `guess-${i}`)));
    expect(results.filter((r) => !r.ok && r.reason === "locked").length).toBeGreaterThanOrEqual(4);
    expect(await verifySignIn(database.prisma, user.email, user.password)).toMatchObject({ reason: "locked" });
  }, 30_000);

  it("refuses a disabled account", async () => {
    const user = await account();
    await database.prisma.user.update({ where: { id: user.id }, data: { disabledAt: new Date() } });
    expect(await verifySignIn(database.prisma, user.email, user.password)).toEqual({ ok: false, reason: "invalid" });
  });
});
