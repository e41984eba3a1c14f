import { describe, expect, it } from "vitest";
import { useTestDatabase } from "@/test/db";
import { createUser } from "./create-user";
import { SIGN_IN_IN_FLIGHT_PER_ACCOUNT, SIGN_IN_LOCK_MINUTES, SIGN_IN_MAX_FAILURES, signInChecks, verifySignIn } from "./sign-in";
import { BUDGETS } from "./sign-in-budgets";

// Issue 41, item 2: the budgets hold however many sign-ins arrive at once (D362), and an IPv6
// host is budgeted by its /64 (D363). "Checked" is counted from the audit trail: every password
// check that fails is audited with reason wrong_password; refusals check none.

const database = useTestDatabase();

async function account() {
  const owner = await database.prisma.user.create({ data: { email: `o-${Math.random()}@x.test`, passwordHash: "x", isInstanceOwner: true } });
  return createUser(database.prisma, { email: `c-${Math.random().toString(36).slice(2)}@x.test`, instanceRole: "none" }, { type: "user", id: owner.id });
}

const signIn = (email: string, password: string, address: string, now?: Date) => verifySignIn(database.prisma, { email, password, address }, now);
const checked = async (userId: string) =>
  (await database.prisma.auditEvent.findMany({ where: { action: "auth.sign_in_failed", targetId: userId } })).filter(
    (event) => (event.metadata as { reason: string }).reason === "wrong_password",
  ).length;

describe("sign-in budgets under concurrency", () => {
  it("16 wrong passwords at once from one address: at most 5 checked, and the right one after them is refused until the window passes", async () => {
    const user = await account();
    const start = new Date();
    const results = await Promise.all(Array.from({ length: 16 }, (_, i) => signIn(user.email, `guess-${i}`, "203.0.113.41", start)));
    const passwordsChecked = await checked(user.id);
    console.info(
      `16 concurrent wrong sign-ins: ${passwordsChecked} passwords checked, answers ${JSON.stringify(results.map((r) => (r.ok ? "ok" : r.reason)))}`,
    );
    expect(passwordsChecked).toBeLessThanOrEqual(SIGN_IN_MAX_FAILURES);
    expect(results.every((result) => !result.ok)).toBe(true);
    expect(await signIn(user.email, user.password, "203.0.113.41", new Date(start.getTime() + 60_000))).toMatchObject({ ok: false, reason: "locked" });
    expect(await checked(user.id)).toBe(passwordsChecked);
    const locks = await database.prisma.auditEvent.count({ where: { action: "auth.sign_in_locked", targetId: user.id } });
    expect(locks).toBe(1);
    // After the lock the right password from that address signs in again.
    const after = new Date(start.getTime() + (SIGN_IN_LOCK_MINUTES * 60 + 1) * 1000);
    expect(await signIn(user.email, user.password, "203.0.113.41", after)).toMatchObject({ ok: true, userId: user.id });
  }, 120_000);

  it("15 wrong and the right one in one burst: no more than 5 passwords are checked in all", async () => {
    const user = await account();
    const start = new Date();
    const passwords = Array.from({ length: 15 }, (_, i) => `guess-${i}`);
    passwords.splice(7, 0, user.password);
    const results = await Promise.all(passwords.map((password) => signIn(user.email, password, "203.0.113.42", start)));
    const succeeded = results.filter((result) => result.ok).length;
    expect((await checked(user.id)) + succeeded).toBeLessThanOrEqual(SIGN_IN_MAX_FAILURES);
  }, 120_000);

  it("one /64 is one address: five wrong passwords from five of its addresses lock it, a neighbouring /64 signs in", async () => {
    const user = await account();
    const start = new Date();
    const results = [];
    for (let i = 1; i <= SIGN_IN_MAX_FAILURES; i++) results.push(await signIn(user.email, `guess-${i}`, `2001:db8:41:64::${i.toString(16)}`, start));
    expect(results.at(-1)).toMatchObject({ ok: false, reason: "locked" });
    expect(await signIn(user.email, user.password, "2001:db8:41:64:ffff:1:2:3", start)).toMatchObject({ ok: false, reason: "locked" });
    expect(await signIn(user.email, user.password, "2001:db8:41:65::1", start)).toMatchObject({ ok: true, userId: user.id });
    const lock = await database.prisma.auditEvent.findFirstOrThrow({ where: { action: "auth.sign_in_locked", targetId: user.id } });
    expect(lock.metadata).toMatchObject({ scope: "account_address", budget_address: "2001:db8:41:64::/64" });
  }, 60_000);

  it("the address budget counts a /64 as one sprayer; an IPv4-mapped address is its IPv4 address", async () => {
    const start = new Date();
    const outcomes: string[] = [];
    for (let i = 0; i < BUDGETS.address.maxFailures + 3; i++) {
      const result = await signIn(`spray-${i}@x.test`, "Winter2026", `2001:db8:41:99::${(i + 1).toString(16)}`, start);
      outcomes.push(result.ok ? "ok" : result.reason);
    }
    expect(outcomes.filter((outcome) => outcome === "address_locked")).toHaveLength(4);
    const lock = await database.prisma.auditEvent.findFirstOrThrow({
      where: { action: "auth.sign_in_locked", targetType: "address", targetId: "2001:db8:41:99::/64" },
    });
    expect(lock.metadata).toMatchObject({ scope: "address" });

    const user = await account();
    for (let i = 0; i < SIGN_IN_MAX_FAILURES; i++) await signIn(user.email, `guess-${i}`, "::ffff:198.51.100.41", start);
    expect(await signIn(user.email, user.password, "198.51.100.41", start)).toMatchObject({ ok: false, reason: "locked" });
  }, 120_000);

  it(`at most ${SIGN_IN_IN_FLIGHT_PER_ACCOUNT} password checks of one account run at once: the next one waits for a place`, async () => {
    const user = await account();
    const held = await Promise.all(Array.from({ length: SIGN_IN_IN_FLIGHT_PER_ACCOUNT }, () => signInChecks.acquire(user.email)));
    expect(held.every(Boolean)).toBe(true);
    let settled = false;
    const waiting = signIn(user.email, user.password, "203.0.113.43").then((result) => ((settled = true), result));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(settled).toBe(false);
    expect(signInChecks.inFlight(user.email)).toBe(SIGN_IN_IN_FLIGHT_PER_ACCOUNT + 1);
    held[0]!();
    expect(await waiting).toMatchObject({ ok: true, userId: user.id });
    held[1]!();
    expect(signInChecks.inFlight(user.email)).toBe(0);
  }, 60_000);
});
