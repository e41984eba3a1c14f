import { ownerProcedure } from "@/server/api/dashboard/trpc";
import { createUser } from "@/server/modules/users/create-user";
import { createUserInput, createUserOutput } from "./create-user.types";

export const createUserProcedure = ownerProcedure
  .input(createUserInput)
  .output(createUserOutput)
  .mutation(({ ctx, input }) => createUser(ctx.db, { ...input, membership: input.membership ?? undefined }, { type: "user", id: ctx.viewer.userId }));
