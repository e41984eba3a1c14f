import { page } from "@/server/api/v1/response-envelope";
import { outputContract } from "@/server/api/v1/output-contract";
import { apiProcedure } from "@/server/api/v1/trpc";
import { listRecords } from "@/server/modules/records/list-records";
import { listRecordsInput, listRecordsMeta, listRecordsOutput } from "./list-records.types";
import { toRecordDto } from "./record.types";

export const listRecordsProcedure = apiProcedure
  .meta(listRecordsMeta)
  .input(listRecordsInput)
  .output(outputContract(listRecordsOutput))
  .query(async ({ ctx, input }) => {
    const result = await listRecords(ctx.db, {
      organizationId: input.org,
      formId: input.form,
      limit: input.limit,
      cursor: input.cursor,
      sort: input.sort,
      createdAfter: input.created_after,
      createdBefore: input.created_before,
      submittedBy: input.submitted_by,
    });
    return page(ctx, result.items.map(toRecordDto), result.meta);
  });
