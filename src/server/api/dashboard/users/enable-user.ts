import { ownerProcedure } from "@/server/api/dashboard/trpc";
import { enableUser } from "@/server/modules/users/lifecycle";
import { enableUserOutput, userTargetInput } from "./user-lifecycle.types";

export const enableUserProcedure = ownerProcedure
  .input(userTargetInput)
  .output(enableUserOutput)
  .mutation(async ({ ctx, input }) => {
    await enableUser(ctx.db, { type: "user", id: ctx.viewer.userId }, input.userId);
    return { ok: true as const };
  });
