import { z } from "zod";
import type { KeySummary } from "@/server/modules/api-keys/list-keys";
import { iso, isoOrNull, isoString } from "../iso";

/** null: the instance tab (instance-scoped keys and the retired keys of deleted organizations). */
export const keyBindingInput = z.object({ organizationId: z.string().min(1).max(200).nullable() });

export const keySummarySchema = z.object({
  id: z.string(),
  name: z.string(),
  prefix: z.string(),
  scopes: z.array(z.string()),
  organizationId: z.string().nullable(),
  environment: z.enum(["live", "test"]),
  rateLimit: z.number().int(),
  rateLimitWindowSeconds: z.number().int(),
  createdAt: isoString,
  expiresAt: isoString.nullable(),
  lastUsedAt: isoString.nullable(),
  revokedAt: isoString.nullable(),
  /** A pending scheduled revocation (D480). */
  revokeAt: isoString.nullable(),
  createdBy: z.object({ id: z.string(), email: z.string(), name: z.string().nullable() }).nullable(),
  state: z.enum(["active", "expired", "revoked"]),
  formerOrganization: z.object({ id: z.string(), name: z.string().nullable() }).nullable(),
});

export function toKeySummaryDto(key: KeySummary): z.infer<typeof keySummarySchema> {
  return {
    id: key.id,
    name: key.name,
    prefix: key.prefix,
    scopes: key.scopes,
    organizationId: key.organizationId,
    environment: key.environment,
    rateLimit: key.rateLimit,
    rateLimitWindowSeconds: key.rateLimitWindowSeconds,
    createdAt: iso(key.createdAt),
    expiresAt: isoOrNull(key.expiresAt),
    lastUsedAt: isoOrNull(key.lastUsedAt),
    revokedAt: isoOrNull(key.revokedAt),
    revokeAt: isoOrNull(key.revokeAt),
    createdBy: key.createdBy,
    state: key.state,
    formerOrganization: key.formerOrganization,
  };
}
