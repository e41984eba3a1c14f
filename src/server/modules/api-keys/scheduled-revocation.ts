import { Prisma } from "@/server/db/generated/client";
import type { Db } from "@/server/db/types";
import { inTransaction } from "@/server/db/transaction";
import { AppError } from "@/server/errors/app-error";
import { SYSTEM, type ActingPrincipal } from "@/server/modules/access/acting-principal";
import { recordAuditEvent } from "@/server/modules/audit/record-audit-event";
import { keyWithinReach } from "./key-scope";

/** How far ahead a revocation may be scheduled (D481): a key meant to last longer wants an expiry. */
const MAX_SCHEDULE_AHEAD_MS = 366 * 24 * 3600 * 1000;

/** The presets offered by the dashboard, the CLI's `--in` and a rotation (Stripe's roll: 1 h, 24 h, 7 d). */
export const REVOCATION_PRESETS = { "1h": 3600_000, "24h": 24 * 3600_000, "7d": 7 * 24 * 3600_000 } as const;
export type RevocationPreset = keyof typeof REVOCATION_PRESETS;

/** `90m`, `24h`, `7d`, `1w` → milliseconds; null when it does not read as a duration. */
export function parseDuration(text: string): number | null {
  const match = /^(\d{1,6})\s*(m|min|h|d|w)$/i.exec(text.trim());
  if (!match) return null;
  const unit = { m: 60_000, min: 60_000, h: 3600_000, d: 86_400_000, w: 604_800_000 }[match[2]!.toLowerCase() as "m"];
  const ms = Number(match[1]) * unit;
  return ms > 0 ? ms : null;
}

async function lockKeyInReach(tx: Db, principal: ActingPrincipal, keyId: string) {
  // NOTE: FOR UPDATE serialises a schedule, a cancel, a revoke and the worker's sweep of one key.
  const locked = await tx.$queryRaw<{ id: string }[]>(Prisma.sql`SELECT id FROM api_keys WHERE id = ${keyId} FOR UPDATE`);
  const key = locked.length ? await tx.apiKey.findUnique({ where: { id: keyId }, omit: { hash: true } }) : null;
  if (!key || !keyWithinReach(key, principal)) throw new AppError("not_found", `No API key ${keyId}.`);
  return key;
}

/**
 * Schedules the key's revocation at `at` (D480): from that moment the key is refused (the API
 * reads revoke_at itself, so a late worker changes nothing), and the worker then sets revoked_at.
 * Rescheduling replaces the time. Keys stay otherwise uneditable (spec 3.1): this is a revocation,
 * only later. Audited as api_key.revocation_scheduled.
 */
export async function scheduleKeyRevocation(
  db: Db,
  principal: ActingPrincipal,
  keyId: string,
  at: Date,
  now = new Date(),
): Promise<{ id: string; prefix: string; revokeAt: Date }> {
  if (Number.isNaN(at.getTime())) throw new AppError("bad_request", "The revocation time is not a valid time.");
  if (at.getTime() <= now.getTime()) throw new AppError("bad_request", "A scheduled revocation must be in the future; to revoke now, revoke the key.");
  if (at.getTime() - now.getTime() > MAX_SCHEDULE_AHEAD_MS)
    throw new AppError("bad_request", "A revocation can be scheduled at most a year ahead; give the key an expiry instead.");
  return inTransaction(db, async (tx) => {
    const key = await lockKeyInReach(tx, principal, keyId);
    if (key.revokedAt || (key.revokeAt && key.revokeAt <= now)) throw new AppError("conflict", "This API key is already revoked.");
    if (key.expiresAt && key.expiresAt <= now) throw new AppError("conflict", "This API key has expired; there is nothing to revoke.");
    await tx.apiKey.update({ where: { id: key.id }, data: { revokeAt: at } });
    await recordAuditEvent(tx, {
      action: "api_key.revocation_scheduled",
      actor: principal.actor,
      organizationId: key.organizationId,
      target: { type: "api_key", id: key.id },
      metadata: { prefix: key.prefix, name: key.name, revoke_at: at.toISOString(), previous_revoke_at: key.revokeAt?.toISOString() ?? null },
    });
    return { id: key.id, prefix: key.prefix, revokeAt: at };
  });
}

/**
 * Cancels a pending scheduled revocation. Nothing scheduled: nothing changes and nothing is
 * recorded (like revoking a revoked key). Once the time has passed the key is revoked and that
 * is permanent: a conflict.
 */
export async function cancelKeyRevocation(
  db: Db,
  principal: ActingPrincipal,
  keyId: string,
  now = new Date(),
): Promise<{ id: string; prefix: string; cancelled: Date | null }> {
  return inTransaction(db, async (tx) => {
    const key = await lockKeyInReach(tx, principal, keyId);
    if (key.revokedAt || (key.revokeAt && key.revokeAt <= now))
      throw new AppError("conflict", "This API key is already revoked; a revocation cannot be undone.");
    if (!key.revokeAt) return { id: key.id, prefix: key.prefix, cancelled: null };
    await tx.apiKey.update({ where: { id: key.id }, data: { revokeAt: null } });
    await recordAuditEvent(tx, {
      action: "api_key.revocation_cancelled",
      actor: principal.actor,
      organizationId: key.organizationId,
      target: { type: "api_key", id: key.id },
      metadata: { prefix: key.prefix, name: key.name, revoke_at: key.revokeAt.toISOString() },
    });
    return { id: key.id, prefix: key.prefix, cancelled: key.revokeAt };
  });
}

/**
 * The worker's sweep (every minute, D482): keys whose scheduled time has come get revoked_at =
 * the scheduled time (when the API began refusing them), one audit event each,
 * api_key.revoked with reason "scheduled". SKIP LOCKED: two workers split the due keys.
 */
export async function revokeDueKeys(db: Db, now = new Date(), batch = 500): Promise<string[]> {
  return inTransaction(db, async (tx) => {
    const due = await tx.$queryRaw<{ id: string; prefix: string; name: string; organization_id: string | null; revoke_at: Date }[]>(Prisma.sql`
      SELECT id, prefix, name, organization_id, revoke_at FROM api_keys
       WHERE revoked_at IS NULL AND revoke_at IS NOT NULL AND revoke_at <= ${now}
       ORDER BY revoke_at LIMIT ${batch} FOR UPDATE SKIP LOCKED`);
    for (const key of due) {
      await tx.apiKey.update({ where: { id: key.id }, data: { revokedAt: key.revoke_at } });
      await recordAuditEvent(tx, {
        action: "api_key.revoked",
        actor: SYSTEM.actor,
        organizationId: key.organization_id,
        target: { type: "api_key", id: key.id },
        metadata: { prefix: key.prefix, name: key.name, reason: "scheduled", revoke_at: key.revoke_at.toISOString() },
      });
    }
    return due.map((key) => key.id);
  });
}
