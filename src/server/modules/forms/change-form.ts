import { inTransaction } from "@/server/db/transaction";
import type { Db } from "@/server/db/types";
import { AppError } from "@/server/errors/app-error";
import { withinReach, type ActingPrincipal } from "../access/acting-principal";
import { recordAuditEvent } from "../audit/record-audit-event";
import { parseFormName } from "./create-form";

export interface FormRef {
  id: string;
  organizationId: string;
  name: string;
}

/** The form, when it is within the principal's reach (and the organization given); else not_found. */
export async function requireForm(db: Db, principal: ActingPrincipal, formId: string, organizationId?: string): Promise<FormRef> {
  const form = await db.form.findFirst({
    where: { id: formId, ...withinReach(principal), ...(organizationId ? { organizationId } : {}) },
    select: { id: true, organizationId: true, name: true },
  });
  if (!form) throw new AppError("not_found", `No form ${formId}.`);
  return form;
}

/** Renames a form (form.renamed, with the old and new names). */
export async function renameForm(db: Db, principal: ActingPrincipal, formId: string, name: string): Promise<FormRef> {
  const formName = parseFormName(name);
  return inTransaction(db, async (tx) => {
    const form = await requireForm(tx, principal, formId);
    const renamed = await tx.form.update({ where: { id: form.id }, data: { name: formName }, select: { id: true, organizationId: true, name: true } });
    await recordAuditEvent(tx, {
      action: "form.renamed",
      actor: principal.actor,
      organizationId: form.organizationId,
      target: { type: "form", id: form.id, label: renamed.name },
      // `from`/`to` as before; `changes` is what every edit carries (D443).
      metadata: { from: form.name, to: renamed.name, changes: { name: { from: form.name, to: renamed.name } } },
    });
    return renamed;
  });
}

/**
 * Deletes a form that has no records (form.deleted). A form with records is refused with a
 * conflict that says how many: records are field data, never removed as a side effect.
 * NOTE: the form row is locked first (FOR UPDATE); a record insert takes a key-share lock on it
 * through the foreign key, so no record can land between the count and the delete.
 */
export async function deleteForm(db: Db, principal: ActingPrincipal, formId: string): Promise<FormRef> {
  return inTransaction(db, async (tx) => {
    const form = await requireForm(tx, principal, formId);
    await tx.$queryRaw`SELECT id FROM forms WHERE id = ${form.id} FOR UPDATE`;
    const records = await tx.record.count({ where: { formId: form.id } });
    if (records > 0) {
      throw new AppError("conflict", `${form.name} has ${records} record${records === 1 ? "" : "s"}; only a form without records can be deleted.`, {
        details: { records },
      });
    }
    await tx.form.delete({ where: { id: form.id } });
    await recordAuditEvent(tx, {
      action: "form.deleted",
      actor: principal.actor,
      organizationId: form.organizationId,
      target: { type: "form", id: form.id },
      metadata: { name: form.name },
    });
    return form;
  });
}
