import { z } from "zod";
import { isUniqueViolation } from "@/server/db/errors";
import { inTransaction } from "@/server/db/transaction";
import type { Db } from "@/server/db/types";
import { AppError } from "@/server/errors/app-error";
import { fromZod } from "@/server/errors/zod-issues";
import { recordAuditEvent } from "@/server/modules/audit/record-audit-event";
import type { LifecycleActor } from "./lifecycle";
import { generatePassword, hashPassword } from "./passwords";

const instanceRoles = ["none", "support", "owner"] as const;
export type InstanceRole = (typeof instanceRoles)[number];

export const createUserInputSchema = z.object({
  email: z.email("must be an email address").transform((email) => email.trim().toLowerCase()),
  name: z.string().trim().max(200).optional(),
  instanceRole: z.enum(instanceRoles).default("none"),
  membership: z.object({ organizationId: z.string().min(1), role: z.enum(["admin", "member"]) }).optional(),
});

export interface CreatedUser {
  id: string;
  email: string;
  /** Generated, shown once to the owner who creates the account (D64); only its hash is kept. */
  password: string;
}

/** An instance owner creates an account, optionally already a member of one organization. */
export async function createUser(db: Db, input: z.input<typeof createUserInputSchema>, actor: LifecycleActor): Promise<CreatedUser> {
  const parsed = createUserInputSchema.safeParse(input);
  if (!parsed.success) throw fromZod(parsed.error, { subject: "user", root: "input" });
  const { email, name, instanceRole, membership } = parsed.data;
  const password = generatePassword();
  const passwordHash = await hashPassword(password);
  try {
    return await inTransaction(db, async (tx) => {
      if (membership) {
        const organization = await tx.organization.findUnique({ where: { id: membership.organizationId }, select: { id: true } });
        if (!organization) throw new AppError("not_found", `No organization ${membership.organizationId}.`);
      }
      const user = await tx.user.create({
        data: {
          email,
          name: name || null,
          passwordHash,
          isInstanceOwner: instanceRole === "owner",
          isSupport: instanceRole === "support",
          ...(membership ? { memberships: { create: { organizationId: membership.organizationId, role: membership.role } } } : {}),
        },
        select: { id: true, email: true },
      });
      await recordAuditEvent(tx, {
        action: "user.created",
        actor: { type: actor.type, id: actor.id },
        organizationId: membership?.organizationId ?? null,
        target: { type: "user", id: user.id },
        metadata: { email, instance_role: instanceRole, ...(membership ? { role: membership.role } : {}) },
      });
      return { id: user.id, email: user.email, password };
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError("conflict", `A user with email ${email} already exists.`);
    throw error;
  }
}
