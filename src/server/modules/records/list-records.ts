import type { Db } from "@/server/db/types";
import { cursorValues, decodeCursor } from "@/server/modules/pagination/cursor";
import { keysetAfter, parseSort, toPage, type Page } from "@/server/modules/pagination/page";
import { requireFormInOrganization } from "./require-form";

type RecordSort = "created_at" | "-created_at";

export interface ListRecordsQuery {
  organizationId: string;
  formId: string;
  limit: number;
  cursor?: string;
  sort: RecordSort;
  createdAfter?: Date;
  createdBefore?: Date;
  submittedBy?: string;
}

export interface RecordRow {
  id: string;
  formId: string;
  createdBy: string;
  fieldValues: unknown;
  createdAt: Date;
}

export async function listRecords(db: Db, query: ListRecordsQuery): Promise<Page<RecordRow>> {
  await requireFormInOrganization(db, query.organizationId, query.formId);
  const { direction } = parseSort<"created_at">(query.sort);
  const filters = {
    form: query.formId,
    created_after: query.createdAfter?.toISOString() ?? null,
    created_before: query.createdBefore?.toISOString() ?? null,
    submitted_by: query.submittedBy ?? null,
  };
  const binding = { endpoint: "records.list", sort: query.sort, filters };
  const after = query.cursor ? decodeCursor(query.cursor, binding, cursorValues.timestamp) : undefined;

  const rows = await db.record.findMany({
    where: {
      formId: query.formId,
      ...(query.submittedBy !== undefined ? { createdBy: query.submittedBy } : {}),
      createdAt: {
        ...(query.createdAfter ? { gt: query.createdAfter } : {}),
        ...(query.createdBefore ? { lt: query.createdBefore } : {}),
      },
      ...(after ? keysetAfter("createdAt", direction, new Date(after[0]), after[1]) : {}),
    },
    orderBy: [{ createdAt: direction }, { id: direction }],
    take: query.limit + 1,
    select: { id: true, formId: true, createdBy: true, fieldValues: true, createdAt: true },
  });
  return toPage(rows, query.limit, binding, (row) => [row.createdAt.toISOString(), row.id]);
}
