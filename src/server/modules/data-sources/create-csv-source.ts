import { z } from "zod";
import { inTransaction } from "@/server/db/transaction";
import type { Db } from "@/server/db/types";
import { AppError } from "@/server/errors/app-error";
import { fromZod } from "@/server/errors/zod-issues";
import { requireReach, type ActingPrincipal } from "../access/acting-principal";
import { recordAuditEvent } from "../audit/record-audit-event";
import { csvConfigSchema } from "./source-config";

export const sourceNameSchema = z.string().trim().min(1, "must not be empty").max(200, "must be at most 200 characters");

/** A hand-uploaded source; its rows arrive with the first upload. Audited with its creation. */
export async function createCsvSource(
  db: Db,
  principal: ActingPrincipal,
  input: { organizationId: string; name: string; keyColumn?: string | null },
): Promise<{ id: string }> {
  const name = sourceNameSchema.safeParse(input.name);
  if (!name.success) throw fromZod(name.error, { subject: "source", root: "name" });
  requireReach(principal, input.organizationId);
  return inTransaction(db, async (tx) => {
    const organization = await tx.organization.findUnique({ where: { id: input.organizationId }, select: { id: true } });
    if (!organization) throw new AppError("not_found", `No organization ${input.organizationId}.`);
    const created = await tx.dataSource.create({
      data: {
        organizationId: input.organizationId,
        name: name.data,
        kind: "csv",
        // A blank key column means "no key": rows are keyed by their position in the file.
        config: csvConfigSchema.parse({ keyColumn: input.keyColumn }),
        columns: [],
      },
      select: { id: true },
    });
    await recordAuditEvent(tx, {
      action: "data_source.created",
      actor: principal.actor,
      organizationId: input.organizationId,
      target: { type: "data_source", id: created.id },
      metadata: { kind: "csv", name: name.data },
    });
    return created;
  });
}
