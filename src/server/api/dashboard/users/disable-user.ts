import { ownerProcedure } from "@/server/api/dashboard/trpc";
import { disableUser } from "@/server/modules/users/lifecycle";
import { disableUserOutput, userTargetInput } from "./user-lifecycle.types";

/** The account cannot sign in, and its open sessions end on their next request. */
export const disableUserProcedure = ownerProcedure
  .input(userTargetInput)
  .output(disableUserOutput)
  .mutation(({ ctx, input }) => disableUser(ctx.db, { type: "user", id: ctx.viewer.userId }, input.userId));
