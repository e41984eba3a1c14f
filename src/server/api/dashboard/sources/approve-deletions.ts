import { sessionProcedure } from "@/server/api/dashboard/trpc";
import { approveDeletions } from "@/server/modules/data-sources/approve-deletions";
import { sourcePrincipal } from "@/server/modules/access/source-access";
import { approveDeletionsInput, approveDeletionsOutput } from "./approve-deletions.types";

/** Lets the next completed pass apply the deletions the guardrail declined (spec 3.2). */
export const approveDeletionsProcedure = sessionProcedure
  .input(approveDeletionsInput)
  .output(approveDeletionsOutput)
  .mutation(async ({ ctx, input }) => {
    const approved = await approveDeletions(ctx.db, sourcePrincipal(ctx.viewer, input.organizationId, "manage"), input.sourceId);
    return { approvedAt: approved.approvedAt.toISOString(), count: approved.count };
  });
