import { sessionProcedure } from "@/server/api/dashboard/trpc";
import { listSyncRuns } from "@/server/modules/data-sources/sync-runs";
import { sourcePrincipal } from "@/server/modules/access/source-access";
import { toSyncRunDto } from "./source.types";
import { syncHistoryInput, syncHistoryOutput } from "./sync-history.types";

/** A source's passes, newest first. */
export const syncHistoryProcedure = sessionProcedure
  .input(syncHistoryInput)
  .output(syncHistoryOutput)
  .query(async ({ ctx, input }) => {
    const principal = sourcePrincipal(ctx.viewer, input.organizationId, "read");
    const page = await listSyncRuns(ctx.db, principal, input.sourceId, { limit: input.limit, cursor: input.cursor });
    return { items: page.items.map(toSyncRunDto), nextCursor: page.meta.next_cursor };
  });
