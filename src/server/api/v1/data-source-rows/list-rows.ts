import { page } from "@/server/api/v1/response-envelope";
import { outputContract } from "@/server/api/v1/output-contract";
import { apiProcedure } from "@/server/api/v1/trpc";
import { getReadReplica } from "@/server/db/read-replica-env";
import { listRows } from "@/server/modules/data-source-rows/list-rows";
import { listRowsInput, listRowsMeta, listRowsOutput } from "./list-rows.types";
import { toRowDto } from "./row.types";

export const listRowsProcedure = apiProcedure
  .meta(listRowsMeta)
  .input(listRowsInput)
  .output(outputContract(listRowsOutput))
  .query(async ({ ctx, input }) => {
    const result = await listRows(
      ctx.db,
      {
        organizationId: input.organization_id,
        dataSourceId: input.data_source_id,
        limit: input.limit,
        cursor: input.cursor,
        sort: input.sort,
        externalId: input.external_id,
        updatedAfter: input.updated_after,
        includeDeleted: input.include_deleted === "true",
        // Written out as Postgres wrote it, never parsed here (D341).
        dataAs: "json_text",
      },
      { replica: getReadReplica() },
    );
    return page(ctx, result.items.map(toRowDto), result.meta);
  });
