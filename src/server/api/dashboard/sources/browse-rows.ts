import { sessionProcedure } from "@/server/api/dashboard/trpc";
import { listRows } from "@/server/modules/data-source-rows/list-rows";
import { requireSource } from "@/server/modules/access/require-source";
import { sourcePrincipal } from "@/server/modules/access/source-access";
import { browseRowsInput, browseRowsOutput } from "./browse-rows.types";

/**
 * The source page's rows browser: a source's rows in one of the API's orders, filtered by
 * external id and searchable (D107), live only or with tombstones, with the source's column set
 * in its own order (D450).
 */
export const browseRowsProcedure = sessionProcedure
  .input(browseRowsInput)
  .output(browseRowsOutput)
  .query(async ({ ctx, input }) => {
    const source = await requireSource(ctx.db, sourcePrincipal(ctx.viewer, input.organizationId, "read"), input.sourceId);
    const search = input.search?.trim() || undefined;
    const page = await listRows(ctx.db, {
      organizationId: source.organizationId,
      dataSourceId: source.id,
      limit: input.limit,
      cursor: input.cursor,
      sort: input.sort,
      externalId: input.externalId,
      includeDeleted: input.includeDeleted,
      search,
    });
    return {
      columns: source.columns,
      items: page.items.map((row) => ({
        externalId: row.externalId,
        data: row.data,
        displayOrder: row.displayOrder,
        updatedAt: row.updatedAt,
        deletedAt: row.deletedAt,
      })),
      nextCursor: page.meta.next_cursor,
    };
  });
