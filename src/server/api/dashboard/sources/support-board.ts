import { sessionProcedure } from "@/server/api/dashboard/trpc";
import { listDataSources } from "@/server/modules/data-sources/list-sources";
import { PROBLEM_FILTERS } from "@/server/modules/data-sources/source-status";
import { boardPrincipal } from "@/server/modules/access/source-access";
import { toSourceSummaryDto } from "./source.types";
import { supportBoardInput, supportBoardOutput } from "./support-board.types";

/** Every source, across organizations, that needs attention, is in error or is stale (owners and support). */
export const supportBoardProcedure = sessionProcedure
  .input(supportBoardInput)
  .output(supportBoardOutput)
  .query(async ({ ctx, input }) => {
    const page = await listDataSources(ctx.db, boardPrincipal(ctx.viewer), {
      organizationId: input.organizationId,
      kind: input.kind,
      statuses: [...PROBLEM_FILTERS],
      excludePaused: true,
      sort: input.sort,
      limit: 100,
      cursor: input.cursor,
    });
    return { items: page.items.map(toSourceSummaryDto), nextCursor: page.meta.next_cursor };
  });
