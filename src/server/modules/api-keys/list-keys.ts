import type { Db } from "@/server/db/types";
import type { KeyIdentity } from "./principal";

export type KeyState = "active" | "revoked" | "expired";

export interface KeySummary extends KeyIdentity {
  state: KeyState;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

/** Prefixes only: the hash is never selected, the plaintext never existed here. */
export async function listApiKeys(db: Db, filter: { organizationId?: string } = {}, now = new Date()): Promise<KeySummary[]> {
  const keys = await db.apiKey.findMany({
    where: filter.organizationId ? { organizationId: filter.organizationId } : {},
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    omit: { hash: true },
  });
  return keys.map((key) => ({
    id: key.id,
    name: key.name,
    prefix: key.prefix,
    scopes: key.scopes,
    organizationId: key.organizationId,
    environment: key.environment,
    state: key.revokedAt ? "revoked" : key.expiresAt && key.expiresAt <= now ? "expired" : "active",
    expiresAt: key.expiresAt,
    lastUsedAt: key.lastUsedAt,
    revokedAt: key.revokedAt,
    rateLimit: key.rateLimit,
    createdAt: key.createdAt,
  }));
}
