import { z } from "zod";

/** The account an owner acts on (disable, enable, reset password, unlock). */
export const userTargetInput = z.object({ userId: z.string().min(1).max(200) });

export const disableUserOutput = z.object({ sessionsEnded: z.number().int() });
export const enableUserOutput = z.object({ ok: z.literal(true) });
/** The new password, shown once to the owner who reset it (D173); only its hash is kept. */
export const resetPasswordOutput = z.object({ email: z.string(), password: z.string() });
export const unlockUserOutput = z.object({ locksCleared: z.number().int() });
