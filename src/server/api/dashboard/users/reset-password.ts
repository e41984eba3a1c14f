import { ownerProcedure } from "@/server/api/dashboard/trpc";
import { resetPassword } from "@/server/modules/users/lifecycle";
import { resetPasswordOutput, userTargetInput } from "./user-lifecycle.types";

/** A new generated password, shown once; the old one and every session stop working. */
export const resetPasswordProcedure = ownerProcedure
  .input(userTargetInput)
  .output(resetPasswordOutput)
  .mutation(({ ctx, input }) => resetPassword(ctx.db, { type: "user", id: ctx.viewer.userId }, input.userId));
