import { ownerProcedure } from "@/server/api/dashboard/trpc";
import { unlockUser } from "@/server/modules/users/lifecycle";
import { unlockUserOutput, userTargetInput } from "./user-lifecycle.types";

/** Lifts the account's sign-in locks from every address. */
export const unlockUserProcedure = ownerProcedure
  .input(userTargetInput)
  .output(unlockUserOutput)
  .mutation(({ ctx, input }) => unlockUser(ctx.db, { type: "user", id: ctx.viewer.userId }, input.userId));
