import type { Db } from "@/server/db/types";
import { AppError } from "@/server/errors/app-error";

/** A form addressed under another organization's path is simply not there: 404. */
export async function requireFormInOrganization(db: Db, organizationId: string, formId: string): Promise<void> {
  const form = await db.form.findFirst({ where: { id: formId, organizationId }, select: { id: true } });
  if (!form) throw new AppError("not_found", `No form ${formId} in organization ${organizationId}.`);
}
