import type { PrismaClient } from "@/server/db/types";
import { AppError } from "@/server/errors/app-error";
import { recordAuditEvent, type ActorType } from "@/server/modules/audit/record-audit-event";

/** Permanent (spec 3.1). Revoking a revoked key changes nothing and records nothing. */
export async function revokeApiKey(
  db: PrismaClient,
  keyId: string,
  actor: { type: ActorType; id?: string },
): Promise<{ id: string; prefix: string; revokedAt: Date }> {
  return db.$transaction(async (tx) => {
    const key = await tx.apiKey.findUnique({ where: { id: keyId } });
    if (!key) throw new AppError("not_found", `No API key ${keyId}.`);
    if (key.revokedAt) return { id: key.id, prefix: key.prefix, revokedAt: key.revokedAt };
    const revoked = await tx.apiKey.update({ where: { id: keyId }, data: { revokedAt: new Date() } });
    await recordAuditEvent(tx, {
      action: "api_key.revoked",
      actor,
      organizationId: key.organizationId,
      target: { type: "api_key", id: key.id },
      metadata: { prefix: key.prefix, name: key.name },
    });
    return { id: revoked.id, prefix: revoked.prefix, revokedAt: revoked.revokedAt! };
  });
}
