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
