import { sessionProcedure } from "@/server/api/dashboard/trpc";
import { getSyncActivity } from "@/server/modules/data-sources/sync-runs";
import { sourcePrincipal } from "@/server/modules/access/source-access";
import { toSyncRunDto } from "./source.types";
import { syncActivityInput, syncActivityOutput } from "./sync-activity.types";

/** Polled by "Sync now": the pass under way (rows read, phase), then the one that finished since the request. */
export const syncActivityProcedure = sessionProcedure
  .input(syncActivityInput)
  .output(syncActivityOutput)
  .query(async ({ ctx, input }) => {
    const principal = sourcePrincipal(ctx.viewer, input.organizationId, "read");
    const activity = await getSyncActivity(ctx.db, principal, input.sourceId, new Date(input.since));
    return {
      running: activity.running ? toSyncRunDto(activity.running) : null,
      finished: activity.finished ? toSyncRunDto(activity.finished) : null,
      checkedAt: new Date().toISOString(),
    };
  });
