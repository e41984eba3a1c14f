import { sessionProcedure } from "@/server/api/dashboard/trpc";
import { pauseDataSource, resumeDataSource } from "@/server/modules/data-sources/manage/pause-source";
import { sourcePrincipal } from "@/server/modules/access/source-access";
import { pauseSourceInput, pauseSourceOutput, resumeSourceInput, resumeSourceOutput } from "./manage-source.types";

/** Pause (D131): no pass until resumed; rows keep being served. */
export const pauseSourceProcedure = sessionProcedure
  .input(pauseSourceInput)
  .output(pauseSourceOutput)
  .mutation(async ({ ctx, input }) => {
    const { pausedAt } = await pauseDataSource(ctx.db, sourcePrincipal(ctx.viewer, input.organizationId, "manage"), input.sourceId);
    return { pausedAt: pausedAt.toISOString() };
  });

/** Resume: a scheduled source's next pass is queued at once (D501). */
export const resumeSourceProcedure = sessionProcedure
  .input(resumeSourceInput)
  .output(resumeSourceOutput)
  .mutation(async ({ ctx, input }) => {
    const resumed = await resumeDataSource(ctx.db, sourcePrincipal(ctx.viewer, input.organizationId, "manage"), input.sourceId);
    return { resumedAt: resumed.resumedAt.toISOString(), passQueued: resumed.passQueued, scheduled: resumed.scheduled };
  });
