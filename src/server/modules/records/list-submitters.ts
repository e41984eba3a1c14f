import { Prisma } from "@/server/db/generated/client";
import type { Db } from "@/server/db/types";
import { AppError } from "@/server/errors/app-error";
import { requireFormInOrganization } from "./require-form";

/** How many of a form's newest records the suggestions look through (D458). */
const SUBMITTER_WINDOW = 10_000;

export interface Submitter {
  createdBy: string;
  records: number;
}

/**
 * The submitters ("created_by") of a form's newest SUBMITTER_WINDOW records whose name contains
 * `search` (any case), most records first: suggestions for the records browser's exact
 * "submitted by" filter (D458). NOTE: bounded by the window (read from the form's created_at
 * index), so a form of millions of records costs the same; a submitter seen only in older
 * records is not suggested, though the filter still finds it when typed whole.
 */
export async function listSubmitters(db: Db, organizationId: string, formId: string, search: string | undefined, limit = 20): Promise<Submitter[]> {
  await requireFormInOrganization(db, organizationId, formId);
  const text = search?.trim() ?? "";
  if (text.includes("\u0000")) throw new AppError("bad_request", "The search text must not contain U+0000.");
  const pattern = `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const rows = await db.$queryRaw<Array<{ created_by: string; records: bigint }>>(Prisma.sql`
    SELECT created_by, count(*) AS records
      FROM (SELECT created_by FROM records WHERE form_id = ${formId} ORDER BY created_at DESC, id DESC LIMIT ${SUBMITTER_WINDOW}) AS recent
     WHERE created_by ILIKE ${pattern}
     GROUP BY created_by
     ORDER BY count(*) DESC, created_by
     LIMIT ${limit}`);
  return rows.map((row) => ({ createdBy: row.created_by, records: Number(row.records) }));
}
