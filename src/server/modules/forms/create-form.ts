import { z } from "zod";
import { inTransaction } from "@/server/db/transaction";
import type { Db } from "@/server/db/types";
import { AppError } from "@/server/errors/app-error";
import { fromZod } from "@/server/errors/zod-issues";
import { requireReach, type ActingPrincipal } from "../access/acting-principal";
import { recordAuditEvent } from "../audit/record-audit-event";

const formNameSchema = z.string().trim().min(1, "must not be empty").max(200, "must be at most 200 characters");

export function parseFormName(name: string): string {
  const parsed = formNameSchema.safeParse(name);
  if (!parsed.success) throw fromZod(parsed.error, { subject: "form", root: "name" });
  return parsed.data;
}

/** A new form in an organization within the principal's reach; audited with it (form.created). */
export async function createForm(db: Db, principal: ActingPrincipal, organizationId: string, name: string): Promise<{ id: string; name: string }> {
  const formName = parseFormName(name);
  requireReach(principal, organizationId);
  return inTransaction(db, async (tx) => {
    const organization = await tx.organization.findUnique({ where: { id: organizationId }, select: { id: true } });
    if (!organization) throw new AppError("not_found", `No organization ${organizationId}.`);
    const form = await tx.form.create({ data: { organizationId, name: formName }, select: { id: true, name: true } });
    await recordAuditEvent(tx, {
      action: "form.created",
      actor: principal.actor,
      organizationId,
      target: { type: "form", id: form.id },
      metadata: { name: form.name },
    });
    return form;
  });
}
