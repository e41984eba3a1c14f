/** The authenticated caller of an /api/v1 request. */
export interface ApiKeyPrincipal {
  keyId: string;
  prefix: string;
  scopes: string[];
  /** null: instance-scoped key. */
  organizationId: string | null;
  rateLimit: number;
  rateLimitWindowSeconds: number;
}

/** What any view of a key may show: never its hash, and the plaintext only at mint. */
export interface KeyIdentity {
  id: string;
  name: string;
  prefix: string;
  scopes: string[];
  /** null: instance-scoped key. */
  organizationId: string | null;
  environment: "live" | "test";
  expiresAt: Date | null;
  rateLimit: number;
  createdAt: Date;
}

/** The shared view of a stored key row; the hash is never part of it. */
export function toKeyIdentity(key: KeyIdentity): KeyIdentity {
  return {
    id: key.id,
    name: key.name,
    prefix: key.prefix,
    scopes: key.scopes,
    organizationId: key.organizationId,
    environment: key.environment,
    expiresAt: key.expiresAt,
    rateLimit: key.rateLimit,
    createdAt: key.createdAt,
  };
}
