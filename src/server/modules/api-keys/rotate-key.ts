import type { z } from "zod";
import type { PrismaClient } from "@/server/db/types";
import { AppError } from "@/server/errors/app-error";
import type { ActingPrincipal } from "@/server/modules/access/acting-principal";
import { getApiKey } from "./list-keys";
import { mintApiKey, type MintedKey, type mintInputSchema } from "./mint-key";
import { REVOCATION_PRESETS, scheduleKeyRevocation, type RevocationPreset } from "./scheduled-revocation";

/**
 * Rotation (spec 5.9, D483): a replacement minted with the caller's settings, and optionally the
 * old key's revocation scheduled (Stripe's roll: 1 h, 24 h, 7 d), so the integration has time to
 * switch. The old key is checked first: a rotation of a key out of reach or already revoked
 * mints nothing.
 */
export async function rotateApiKey(
  db: PrismaClient,
  principal: ActingPrincipal,
  oldKeyId: string,
  input: z.input<typeof mintInputSchema>,
  revokeOldIn: RevocationPreset | null,
  now = new Date(),
): Promise<MintedKey & { oldKeyRevokeAt: Date | null }> {
  const old = await getApiKey(db, principal, oldKeyId, now);
  if (old.state !== "active") throw new AppError("conflict", `The key being rotated is ${old.state}.`);
  const minted = await mintApiKey(db, principal, input);
  if (!revokeOldIn) return { ...minted, oldKeyRevokeAt: null };
  const at = new Date(now.getTime() + REVOCATION_PRESETS[revokeOldIn]);
  await scheduleKeyRevocation(db, principal, oldKeyId, at, now);
  return { ...minted, oldKeyRevokeAt: at };
}
