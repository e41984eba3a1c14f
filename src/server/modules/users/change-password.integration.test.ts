import { describe, expect, it } from "vitest";
import { statusForCode } from "@/server/errors/http-status";
import { useTestDatabase } from "@/test/db";
import { createUser } from "./create-user";
import { changeOwnPassword, unlockUser } from "./lifecycle";
import { BUDGETS } from "./sign-in-budgets";
import { verifySignIn } from "./sign-in";

// Issue 41, item 7: "change your password" has its own attempt budget (D365), so a stolen session
// cannot guess the real password without limit.

const database = useTestDatabase();
const rule = BUDGETS.password_change;

async function member() {
  const owner = await database.prisma.user.create({ data: { email: `o-${Math.random()}@x.test`, passwordHash: "x", isInstanceOwner: true } });
  const user = await createUser(database.prisma, { email: `p-${Math.random().toString(36).slice(2)}@x.test` }, { type: "user", id: owner.id });
  return { ownerId: owner.id, user };
}

const outcome = (promise: Promise<unknown>) =>
  promise.then(
    () => "changed",
    (error: { code: string }) => error.code,
  );
const count = (action: string, targetId: string) => database.prisma.auditEvent.count({ where: { action, targetId } });

describe("changing your own password", () => {
  it("12 wrong current passwords: locked after the budget, every check audited, the right one refused while locked", async () => {
    const { user } = await member();
    const start = new Date();
    const change = (currentPassword: string, at = start) =>
      changeOwnPassword(database.prisma, user.id, { currentPassword, newPassword: "a-brand-new-password" }, at);
    const outcomes = [];
    for (let i = 0; i < 12; i++) outcomes.push(await outcome(change(`guess-${i}`)));
    expect(outcomes).toEqual([...Array(rule.maxFailures - 1).fill("bad_request"), ...Array(12 - rule.maxFailures + 1).fill("rate_limited")]);
    expect(await count("user.password_change_failed", user.id)).toBe(rule.maxFailures);
    expect(await count("user.password_change_locked", user.id)).toBe(1);

    const locked = await change(user.password, new Date(start.getTime() + 60_000)).catch(
      (error: { code: "rate_limited"; message: string; headers?: Record<string, string> }) => error,
    );
    expect(locked).toMatchObject({
      code: "rate_limited",
      message: expect.stringMatching(/^Too many wrong current passwords: changing your password is locked for 14 minutes/),
    });
    expect(statusForCode((locked as { code: "rate_limited" }).code)).toBe(429);
    expect((locked as { headers: Record<string, string> }).headers["Retry-After"]).toBe(String((rule.lockMinutes - 1) * 60));
    expect(await verifySignIn(database.prisma, { email: user.email, password: user.password, address: "127.0.0.1" })).toMatchObject({ ok: true });

    // After the lock the right one works; an owner's unlock lifts it before that.
    await change(user.password, new Date(start.getTime() + (rule.lockMinutes * 60 + 1) * 1000));
    expect(await count("user.password_changed", user.id)).toBe(1);
    const second = await member();
    for (let i = 0; i < rule.maxFailures; i++)
      await outcome(changeOwnPassword(database.prisma, second.user.id, { currentPassword: `g${i}`, newPassword: "another-new-password" }));
    await unlockUser(database.prisma, { type: "user", id: second.ownerId }, second.user.id);
    await changeOwnPassword(database.prisma, second.user.id, { currentPassword: second.user.password, newPassword: "another-new-password" });
    expect(await count("user.password_changed", second.user.id)).toBe(1);
  }, 120_000);

  it("12 wrong current passwords at once: no more than the budget's are checked", async () => {
    const { user } = await member();
    const outcomes = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        outcome(changeOwnPassword(database.prisma, user.id, { currentPassword: `guess-${i}`, newPassword: "a-brand-new-password" })),
      ),
    );
    expect(await count("user.password_change_failed", user.id)).toBeLessThanOrEqual(rule.maxFailures);
    expect(outcomes.filter((code) => code === "rate_limited").length).toBeGreaterThanOrEqual(12 - rule.maxFailures + 1);
    await expect(changeOwnPassword(database.prisma, user.id, { currentPassword: user.password, newPassword: "a-brand-new-password" })).rejects.toMatchObject({
      code: "rate_limited",
    });
  }, 120_000);
});
