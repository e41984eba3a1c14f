import { z } from "zod";
import type { PrismaClient } from "@/server/db/types";
import { AppError } from "@/server/errors/app-error";
import { fromZod } from "@/server/errors/zod-issues";
import { requireReach, type ActingPrincipal } from "@/server/modules/access/acting-principal";
import { recordAuditEvent } from "@/server/modules/audit/record-audit-event";
import { toKeyIdentity, type KeyIdentity } from "./principal";
import { parseScopes } from "./scopes";
import { displayPrefix, generateToken, hashToken } from "./token";

/** Requests per window when the minter does not say (docs/decisions.md). */
const DEFAULT_RATE_LIMIT = 600;
export const MAX_RATE_LIMIT = 1_000_000;
const DEFAULT_RATE_LIMIT_WINDOW_SECONDS = 60;

export const mintInputSchema = z.object({
  name: z.string().trim().min(1, "must not be empty").max(200),
  scopes: z.union([z.string(), z.array(z.string())]),
  organizationId: z.string().nullable(),
  environment: z.enum(["live", "test"]).default("live"),
  expiresAt: z.date().nullable().optional(),
  rateLimit: z.number().int().min(1).max(MAX_RATE_LIMIT).default(DEFAULT_RATE_LIMIT),
});

export interface MintedKey extends KeyIdentity {
  rateLimitWindowSeconds: number;
  /** The plaintext: returned here once and never stored or shown again. */
  token: string;
}

/**
 * A new key for the principal's organization, or an instance-scoped key (`organizationId: null`)
 * for a principal that reaches the instance. The plaintext is in this answer only.
 */
export async function mintApiKey(db: PrismaClient, principal: ActingPrincipal, input: z.input<typeof mintInputSchema>): Promise<MintedKey> {
  const parsed = mintInputSchema.safeParse(input);
  if (!parsed.success) throw fromZod(parsed.error, { subject: "key", root: "input" });
  const { name, organizationId, environment, expiresAt, rateLimit } = parsed.data;
  const scopes = parseScopes(parsed.data.scopes);
  if (organizationId === null && principal.reach !== "instance") {
    throw new AppError("forbidden", "Only instance owners can mint instance-scoped keys.");
  }
  if (organizationId !== null) requireReach(principal, organizationId);
  if (expiresAt && expiresAt.getTime() <= Date.now()) throw new AppError("bad_request", "expires_at must be in the future.");

  const token = generateToken(environment);
  const prefix = displayPrefix(token);
  return db.$transaction(async (tx) => {
    if (organizationId !== null) {
      const organization = await tx.organization.findUnique({ where: { id: organizationId }, select: { id: true } });
      if (!organization) throw new AppError("not_found", `No organization ${organizationId}.`);
    }
    const key = await tx.apiKey.create({
      data: {
        name,
        prefix,
        hash: hashToken(token),
        checksummed: true,
        scopes,
        organizationId,
        environment,
        expiresAt: expiresAt ?? null,
        rateLimit,
        rateLimitWindowSeconds: DEFAULT_RATE_LIMIT_WINDOW_SECONDS,
        createdByUserId: principal.actor.type === "user" ? (principal.actor.id ?? null) : null,
      },
    });
    await recordAuditEvent(tx, {
      action: "api_key.minted",
      actor: principal.actor,
      organizationId,
      target: { type: "api_key", id: key.id },
      metadata: { prefix, name, scopes, environment },
    });
    return { ...toKeyIdentity(key), rateLimitWindowSeconds: key.rateLimitWindowSeconds, token };
  });
}
