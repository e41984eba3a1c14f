import { sessionProcedure } from "@/server/api/dashboard/trpc";
import { replaceCsvRows } from "@/server/modules/data-sources/csv/replace-csv-rows";
import { analyzeAfterUpload } from "@/server/modules/data-sources/sync/statistics";
import { sourcePrincipal } from "./source-access";
import { uploadCsvInput, uploadCsvOutput } from "./upload-csv.types";

/** Wholesale replace (data_version + 1); a file that does not parse changes nothing and names its line. */
export const uploadCsvProcedure = sessionProcedure
  .input(uploadCsvInput)
  .output(uploadCsvOutput)
  .mutation(async ({ ctx, input }) => {
    const result = await replaceCsvRows(ctx.db, sourcePrincipal(ctx.viewer, input.organizationId, "manage"), input.sourceId, input.content);
    // Statistics after a big write (D136): the next rows page plans as an index range scan.
    await analyzeAfterUpload(ctx.db, result);
    return result;
  });
