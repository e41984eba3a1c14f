import { z } from "zod";
import { inTransaction } from "@/server/db/transaction";
import type { Db } from "@/server/db/types";
import { AppError } from "@/server/errors/app-error";
import { fromZod } from "@/server/errors/zod-issues";
import type { ActingPrincipal } from "../access/acting-principal";
import { recordAuditEvent } from "../audit/record-audit-event";

export const organizationNameSchema = z.string().trim().min(1, "must not be empty").max(200, "must be at most 200 characters");

export interface OrganizationSummary {
  id: string;
  name: string;
  createdAt: Date;
}

/** Only a principal of the instance creates organizations; the creation is audited with it. */
export async function createOrganization(db: Db, principal: ActingPrincipal, name: string): Promise<OrganizationSummary> {
  const parsed = organizationNameSchema.safeParse(name);
  if (!parsed.success) throw fromZod(parsed.error, { subject: "organization", root: "name" });
  if (principal.reach !== "instance") throw new AppError("forbidden", "Creating an organization needs instance-wide access.");
  return inTransaction(db, async (tx) => {
    const organization = await tx.organization.create({
      data: { name: parsed.data },
      select: { id: true, name: true, createdAt: true },
    });
    await recordAuditEvent(tx, {
      action: "organization.created",
      actor: principal.actor,
      organizationId: organization.id,
      target: { type: "organization", id: organization.id },
      metadata: { name: organization.name },
    });
    return organization;
  });
}
