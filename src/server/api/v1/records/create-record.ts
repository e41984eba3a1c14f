import { ok } from "@/server/api/v1/response-envelope";
import { outputContract } from "@/server/api/v1/output-contract";
import { apiProcedure } from "@/server/api/v1/trpc";
import type { Prisma } from "@/server/db/types";
import { createRecord } from "@/server/modules/records/create-record";
import { createRecordInput, createRecordMeta, createRecordOutput } from "./create-record.types";
import { toRecordDto } from "./record.types";

export const createRecordProcedure = apiProcedure
  .meta(createRecordMeta)
  .input(createRecordInput)
  .output(outputContract(createRecordOutput))
  .mutation(async ({ ctx, input }) => {
    const record = await createRecord(ctx.db, {
      organizationId: input.org,
      formId: input.form,
      createdBy: input.created_by,
      fieldValues: input.field_values as Prisma.InputJsonObject,
    });
    return ok(ctx, toRecordDto(record));
  });
