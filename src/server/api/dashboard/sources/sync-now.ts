import { sessionProcedure } from "@/server/api/dashboard/trpc";
import { requestSourceSync } from "@/server/modules/data-sources/sync-queue";
import { sourcePrincipal } from "@/server/modules/access/source-access";
import { syncNowInput, syncNowOutput } from "./sync-now.types";

/** Queues a manual pass (D106); the page then polls sources.activity from requestedAt. */
export const syncNowProcedure = sessionProcedure
  .input(syncNowInput)
  .output(syncNowOutput)
  .mutation(async ({ ctx, input }) => {
    const { requestedAt } = await requestSourceSync(ctx.db, sourcePrincipal(ctx.viewer, input.organizationId, "manage"), input.sourceId);
    return { requestedAt: requestedAt.toISOString() };
  });
