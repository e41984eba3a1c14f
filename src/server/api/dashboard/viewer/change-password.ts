import { sessionProcedure } from "@/server/api/dashboard/trpc";
import { changeOwnPassword } from "@/server/modules/users/lifecycle";
import { changePasswordInput, changePasswordOutput } from "./own-account.types";

/** Your own password, the current one required; every session ends (sign in again with the new one). */
export const changePasswordProcedure = sessionProcedure
  .input(changePasswordInput)
  .output(changePasswordOutput)
  .mutation(async ({ ctx, input }) => {
    await changeOwnPassword(ctx.db, ctx.viewer.userId, input);
    return { ok: true as const };
  });
