import { sessionProcedure } from "@/server/api/dashboard/trpc";
import { signOutEverywhere } from "@/server/modules/users/lifecycle";
import { signOutEverywhereOutput } from "./own-account.types";

/** Ends every session of the signed-in user, this one included. */
export const signOutEverywhereProcedure = sessionProcedure.output(signOutEverywhereOutput).mutation(({ ctx }) => signOutEverywhere(ctx.db, ctx.viewer.userId));
