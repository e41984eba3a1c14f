import { z } from "zod";
import { keyBindingInput, keySummarySchema } from "./key.types";

export const mintKeyInput = keyBindingInput.extend({
  name: z.string().trim().min(1, "Give the key a name").max(200),
  environment: z.enum(["live", "test"]),
  scopes: z.array(z.string().max(100)).min(1, "Choose at least one scope").max(100),
  /** ISO 8601; null for a key that does not expire. */
  expiresAt: z.iso.datetime({ offset: true }).nullable(),
  rateLimit: z.number().int().min(1).max(1_000_000),
  /** A rotation: the key replaced, and when to revoke it (null: by hand, later). D483. */
  rotates: z.object({ keyId: z.string().min(1).max(200), revokeOldIn: z.enum(["1h", "24h", "7d"]).nullable() }).optional(),
});

export const mintKeyOutput = z.object({
  key: keySummarySchema,
  /** The plaintext token: in this one response only, never stored or shown again. */
  token: z.string(),
});
