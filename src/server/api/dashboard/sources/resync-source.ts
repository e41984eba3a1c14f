import { sessionProcedure } from "@/server/api/dashboard/trpc";
import { requestResync } from "@/server/modules/data-sources/manage/resync-source";
import { sourcePrincipal } from "@/server/modules/access/source-access";
import { resyncSourceInput, resyncSourceOutput } from "./manage-source.types";

/** Re-read everything (D137): a full compare pass, queued like "Sync now". */
export const resyncSourceProcedure = sessionProcedure
  .input(resyncSourceInput)
  .output(resyncSourceOutput)
  .mutation(async ({ ctx, input }) => {
    const { requestedAt } = await requestResync(ctx.db, sourcePrincipal(ctx.viewer, input.organizationId, "manage"), input.sourceId);
    return { requestedAt: requestedAt.toISOString() };
  });
