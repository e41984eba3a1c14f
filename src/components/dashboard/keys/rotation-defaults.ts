import type { KeyRow, MintDefaults } from "./types";

/** Rotation pre-fills a new mint with the old key's scopes, environment and budget (spec 5.9). */
export const rotationDefaults = (key: KeyRow): MintDefaults => ({
  name: `${key.name} (rotated)`,
  environment: key.environment,
  scopes: key.scopes,
  rateLimit: key.rateLimit,
  rotatingKeyId: key.id,
});
