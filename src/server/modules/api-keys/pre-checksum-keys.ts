import { Prisma } from "@/server/db/generated/client";
import { rawRead } from "@/server/db/raw-read";
import type { Db } from "@/server/db/types";

/** How long "some key minted before checksums is still usable" is trusted before it is asked again. */
const RECHECK_MS = 60_000;

const answers = new WeakMap<Db, { usable: boolean; at: number }>();

/**
 * Whether any key minted before checksums (D333) can still authenticate: only then must a token
 * without a valid checksum be looked up. A "no" is kept for good, because it can never turn
 * back into a "yes": every mint writes a checksummed key, a revocation is never undone, and an
 * expiry never moves. A "yes" is asked again after RECHECK_MS, so revoking or outliving the
 * last old key brings the fast refusal back without a restart.
 */
export async function preChecksumKeysUsable(db: Db, now = Date.now()): Promise<boolean> {
  const known = answers.get(db);
  if (known && (!known.usable || now - known.at < RECHECK_MS)) return known.usable;
  const rows = await rawRead<{ usable: boolean }>(
    db,
    Prisma.sql`
    SELECT EXISTS (
      SELECT 1 FROM api_keys
       WHERE NOT checksummed AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > now())
    ) AS usable`,
  );
  const usable = rows[0]?.usable ?? true;
  answers.set(db, { usable, at: now });
  return usable;
}
