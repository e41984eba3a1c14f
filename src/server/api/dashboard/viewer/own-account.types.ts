import { z } from "zod";

export const changePasswordInput = z.object({
  currentPassword: z.string().min(1, "Enter your current password").max(1024),
  newPassword: z.string().min(12, "must be at least 12 characters").max(1024),
});
export const changePasswordOutput = z.object({ ok: z.literal(true) });
export const signOutEverywhereOutput = z.object({ sessionsEnded: z.number().int() });
