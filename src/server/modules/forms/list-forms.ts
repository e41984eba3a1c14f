import type { Db } from "@/server/db/types";
import { cursorValues, decodeCursor } from "@/server/modules/pagination/cursor";
import { keysetAfter, toPage, type Page } from "@/server/modules/pagination/page";
import { requireReach, type ActingPrincipal } from "../access/acting-principal";

export interface FormSummary {
  id: string;
  name: string;
  createdAt: Date;
  records: number;
  latestRecordAt: Date | null;
}

/**
 * An organization's forms by name, a page at a time, each with its record count and the time of
 * its latest record (one grouped read over the page's forms, on the records(form_id, created_at)
 * index).
 */
export async function listForms(
  db: Db,
  principal: ActingPrincipal,
  query: { organizationId: string; limit: number; cursor?: string },
): Promise<Page<FormSummary>> {
  requireReach(principal, query.organizationId);
  const binding = { endpoint: "dashboard.forms.list", sort: "name", filters: { organization: query.organizationId } };
  const after = query.cursor ? decodeCursor(query.cursor, binding, cursorValues.text) : undefined;
  const forms = await db.form.findMany({
    where: { organizationId: query.organizationId, ...(after ? keysetAfter("name", "asc", after[0], after[1]) : {}) },
    orderBy: [{ name: "asc" }, { id: "asc" }],
    take: query.limit + 1,
    select: { id: true, name: true, createdAt: true },
  });
  const ids = forms.slice(0, query.limit).map((form) => form.id);
  const stats = ids.length
    ? await db.record.groupBy({ by: ["formId"], where: { formId: { in: ids } }, _count: { _all: true }, _max: { createdAt: true } })
    : [];
  const byForm = new Map(stats.map((s) => [s.formId, { records: s._count._all, latestRecordAt: s._max.createdAt }]));
  const rows = forms.map((form) => ({ ...form, records: byForm.get(form.id)?.records ?? 0, latestRecordAt: byForm.get(form.id)?.latestRecordAt ?? null }));
  return toPage(rows, query.limit, binding, (form) => [form.name, form.id]);
}
