import type { Db, Prisma } from "@/server/db/types";
import type { RecordRow } from "./list-records";
import { requireFormInOrganization } from "./require-form";

export interface CreateRecordInput {
  organizationId: string;
  formId: string;
  createdBy: string;
  fieldValues: Prisma.InputJsonObject;
}

export async function createRecord(db: Db, input: CreateRecordInput): Promise<RecordRow> {
  await requireFormInOrganization(db, input.organizationId, input.formId);
  return db.record.create({
    data: {
      organizationId: input.organizationId,
      formId: input.formId,
      createdBy: input.createdBy,
      fieldValues: input.fieldValues,
    },
    select: { id: true, formId: true, createdBy: true, fieldValues: true, createdAt: true },
  });
}
