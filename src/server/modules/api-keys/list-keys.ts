import type { Db } from "@/server/db/types";
import { AppError } from "@/server/errors/app-error";
import type { ActingPrincipal } from "@/server/modules/access/acting-principal";
import { cursorValues, decodeCursor } from "@/server/modules/pagination/cursor";
import { keysetAfter, toPage, type Page } from "@/server/modules/pagination/page";
import { keyListWhere, keyWithinReach } from "./key-scope";
import { toKeyIdentity, type KeyIdentity } from "./principal";

type KeyState = "active" | "revoked" | "expired";

export interface KeySummary extends KeyIdentity {
  state: KeyState;
  rateLimitWindowSeconds: number;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
  /** A pending scheduled revocation (D480); null once it has taken effect (the key reads as revoked). */
  revokeAt: Date | null;
  /** Who minted it; null for keys minted at the command line (or by a since-deleted user). */
  createdBy: { id: string; email: string; name: string | null } | null;
  /** Set on the revoked keys of a deleted organization (D14). */
  formerOrganization: { id: string; name: string | null } | null;
}

interface StoredKey extends KeyIdentity {
  rateLimitWindowSeconds: number;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
  revokeAt: Date | null;
  createdBy?: { id: string; email: string; name: string | null } | null;
  formerOrganizationId: string | null;
  formerOrganizationName: string | null;
}

function toSummary(key: StoredKey, now: Date): KeySummary {
  // NOTE: a scheduled time that has passed is a revocation already (the API refuses the key),
  // whether or not the worker has written revoked_at yet (D480).
  const revokedAt = key.revokedAt ?? (key.revokeAt && key.revokeAt <= now ? key.revokeAt : null);
  return {
    ...toKeyIdentity(key),
    state: revokedAt ? "revoked" : key.expiresAt && key.expiresAt <= now ? "expired" : "active",
    rateLimitWindowSeconds: key.rateLimitWindowSeconds,
    lastUsedAt: key.lastUsedAt,
    revokedAt,
    revokeAt: revokedAt ? null : key.revokeAt,
    createdBy: key.createdBy ?? null,
    formerOrganization: key.formerOrganizationId ? { id: key.formerOrganizationId, name: key.formerOrganizationName } : null,
  };
}

/**
 * The keys within the principal's reach, optionally only one organization's (`organizationId`)
 * or the instance's (`null`), newest first, a page at a time: revoked keys stay listed for audit
 * (spec 3.1), so the list only grows. Prefixes only: the hash is never selected, the plaintext
 * never existed here.
 */
export async function listApiKeys(
  db: Db,
  principal: ActingPrincipal,
  wanted: { organizationId?: string | null },
  page: { limit: number; cursor?: string },
  now = new Date(),
): Promise<Page<KeySummary>> {
  const binding = { endpoint: "keys.list", sort: "-created_at", filters: { organization: wanted.organizationId === undefined ? "*" : wanted.organizationId } };
  const after = page.cursor ? decodeCursor(page.cursor, binding, cursorValues.timestamp) : undefined;
  const keys = await db.apiKey.findMany({
    where: { AND: [keyListWhere(principal, wanted), after ? keysetAfter("createdAt", "desc", new Date(after[0]), after[1]) : {}] },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: page.limit + 1,
    omit: { hash: true },
    include: { createdBy: { select: { id: true, email: true, name: true } } },
  });
  const listed = toPage(keys, page.limit, binding, (key) => [key.createdAt.toISOString(), key.id]);
  return { items: listed.items.map((key) => toSummary(key, now)), meta: listed.meta };
}

/** One key within the principal's reach; a key outside it is reported as absent (no existence leak). */
export async function getApiKey(db: Db, principal: ActingPrincipal, keyId: string, now = new Date()): Promise<KeySummary> {
  const key = await db.apiKey.findUnique({
    where: { id: keyId },
    omit: { hash: true },
    include: { createdBy: { select: { id: true, email: true, name: true } } },
  });
  if (!key || !keyWithinReach(key, principal)) throw new AppError("not_found", `No API key ${keyId}.`);
  return toSummary(key, now);
}
