import { sessionProcedure } from "@/server/api/dashboard/trpc";
import { listDataSources } from "@/server/modules/data-sources/list-sources";
import { sourcePrincipal } from "@/server/modules/access/source-access";
import { toSourceSummaryDto } from "./source.types";
import { listSourcesInput, listSourcesOutput } from "./list-sources.types";

/** One organization's sources: searched, filtered by state and kind, sorted, paged by cursor (D486). */
export const listSourcesProcedure = sessionProcedure
  .input(listSourcesInput)
  .output(listSourcesOutput)
  .query(async ({ ctx, input }) => {
    const principal = sourcePrincipal(ctx.viewer, input.organizationId, "read");
    const page = await listDataSources(ctx.db, principal, {
      organizationId: input.organizationId,
      search: input.search || undefined,
      kind: input.kind,
      statuses: input.status ? [input.status] : undefined,
      sort: input.sort,
      limit: input.limit,
      cursor: input.cursor,
    });
    return { items: page.items.map(toSourceSummaryDto), nextCursor: page.meta.next_cursor };
  });
