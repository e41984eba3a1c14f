import type { Db } from "@/server/db/types";
import { toKeyIdentity, type KeyIdentity } from "./principal";

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
    ...toKeyIdentity(key),
    state: key.revokedAt ? "revoked" : key.expiresAt && key.expiresAt <= now ? "expired" : "active",
    lastUsedAt: key.lastUsedAt,
    revokedAt: key.revokedAt,
  }));
}
