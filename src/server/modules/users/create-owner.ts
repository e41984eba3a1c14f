import { z } from "zod";
import { inTransaction } from "@/server/db/transaction";
import type { Db } from "@/server/db/types";
import type { ActingPrincipal } from "../access/acting-principal";
import { recordAuditEvent } from "../audit/record-audit-event";
import { AppError } from "@/server/errors/app-error";
import { fromZod } from "@/server/errors/zod-issues";
import { isUniqueViolation } from "@/server/db/errors";
import { hashPassword, MIN_PASSWORD_LENGTH } from "./passwords";

export const ownerInputSchema = z.object({
  email: z.email().transform((email) => email.toLowerCase()),
  password: z.string().min(MIN_PASSWORD_LENGTH, `must be at least ${MIN_PASSWORD_LENGTH} characters`),
  name: z.string().trim().min(1).max(200).optional(),
});

export interface CreatedOwner {
  id: string;
  email: string;
  createdAt: Date;
}

/** An instance owner: signs in to the dashboard and may mint instance-scoped keys. Audited. */
export async function createInstanceOwner(db: Db, principal: ActingPrincipal, input: z.input<typeof ownerInputSchema>): Promise<CreatedOwner> {
  const parsed = ownerInputSchema.safeParse(input);
  if (!parsed.success) throw fromZod(parsed.error, { subject: "owner", root: "input" });
  if (principal.reach !== "instance") throw new AppError("forbidden", "Creating an instance owner needs instance-wide access.");
  const passwordHash = await hashPassword(parsed.data.password);
  try {
    return await inTransaction(db, async (tx) => {
      const user = await tx.user.create({
        data: { email: parsed.data.email, name: parsed.data.name, passwordHash, isInstanceOwner: true },
        select: { id: true, email: true, createdAt: true },
      });
      // Never the password or its hash: who was created, by whom, and as what.
      await recordAuditEvent(tx, {
        action: "user.created",
        actor: principal.actor,
        target: { type: "user", id: user.id },
        metadata: { email: user.email, instance_owner: true },
      });
      return user;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError("conflict", `A user with email ${parsed.data.email} already exists.`);
    throw error;
  }
}
