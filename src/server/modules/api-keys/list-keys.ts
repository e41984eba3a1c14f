import type { Db } from "@/server/db/types";
import { AppError } from "@/server/errors/app-error";
import type { ActingPrincipal } from "@/server/modules/access/acting-principal";
import { keyListWhere, keyWithinReach } from "./key-scope";
import { toKeyIdentity, type KeyIdentity } from "./principal";

export type KeyState = "active" | "revoked" | "expired";

export interface KeySummary extends KeyIdentity {
  state: KeyState;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
  /** Set on the revoked keys of a deleted organization (D14). */
  formerOrganization: { id: string; name: string | null } | null;
}

interface StoredKey extends KeyIdentity {
  lastUsedAt: Date | null;
  revokedAt: Date | null;
  formerOrganizationId: string | null;
  formerOrganizationName: string | null;
}

function toSummary(key: StoredKey, now: Date): KeySummary {
  return {
    ...toKeyIdentity(key),
    state: key.revokedAt ? "revoked" : key.expiresAt && key.expiresAt <= now ? "expired" : "active",
    lastUsedAt: key.lastUsedAt,
    revokedAt: key.revokedAt,
    formerOrganization: key.formerOrganizationId ? { id: key.formerOrganizationId, name: key.formerOrganizationName } : null,
  };
}

/**
 * The keys within the principal's reach, optionally only one organization's (`organizationId`)
 * or the instance's (`null`). Prefixes only: the hash is never selected, the plaintext never
 * existed here.
 */
export async function listApiKeys(db: Db, principal: ActingPrincipal, wanted: { organizationId?: string | null } = {}, now = new Date()): Promise<KeySummary[]> {
  const keys = await db.apiKey.findMany({
    where: keyListWhere(principal, wanted),
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    omit: { hash: true },
  });
  return keys.map((key) => toSummary(key, now));
}

/** One key within the principal's reach; a key outside it is reported as absent (no existence leak). */
export async function getApiKey(db: Db, principal: ActingPrincipal, keyId: string, now = new Date()): Promise<KeySummary> {
  const key = await db.apiKey.findUnique({ where: { id: keyId }, omit: { hash: true } });
  if (!key || !keyWithinReach(key, principal)) throw new AppError("not_found", `No API key ${keyId}.`);
  return toSummary(key, now);
}
