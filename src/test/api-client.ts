import pino from "pino";
import { CLI_OPERATOR } from "@/server/modules/access/acting-principal";
import { createMemoryRateLimitStore, type RateLimitStore } from "@/server/modules/rate-limit/rate-limit-store";
import { appRouter } from "@/server/api/v1/root";
import type { PrismaClient } from "@/server/db/types";
import { createApiHandler } from "@/server/api/v1/pipeline/handle-api-request";
import { mintApiKey } from "@/server/modules/api-keys/mint-key";

export interface ApiCall {
  token?: string;
  authorization?: string;
  body?: unknown;
  rawBody?: string;
  headers?: Record<string, string>;
}

export interface ApiResult<T = Record<string, unknown>> {
  status: number;
  headers: Headers;
  text: string;
  body: T & { request_id: string; error?: { code: string; message: string; details?: Record<string, unknown> } };
}

export type ApiHandler = (req: Request) => Promise<Response>;

/** The real /api/v1 pipeline over the real router, in-process; a limiter of its own unless given one. */
export function createTestHandler(getDb: () => PrismaClient, rateLimiter: RateLimitStore = createMemoryRateLimitStore()): ApiHandler {
  return createApiHandler({ router: appRouter, db: getDb, log: pino({ level: "silent" }), rateLimiter });
}

/** The real /api/v1 pipeline over the real router, against a test database, without HTTP. */
export function createTestApi(getDb: () => PrismaClient, handler: ApiHandler = createTestHandler(getDb)) {
  return async function call<T = Record<string, unknown>>(method: string, path: string, init: ApiCall = {}): Promise<ApiResult<T>> {
    const headers: Record<string, string> = { ...init.headers };
    if (init.authorization !== undefined) headers.authorization = init.authorization;
    else if (init.token) headers.authorization = `Bearer ${init.token}`;
    let body: string | undefined = init.rawBody;
    if (body === undefined && init.body !== undefined) body = JSON.stringify(init.body);
    if (body !== undefined) headers["content-type"] ??= "application/json";
    const res = await handler(new Request(`http://localhost/api/v1${path}`, { method, headers, body }));
    const text = await res.text();
    return { status: res.status, headers: res.headers, text, body: JSON.parse(text) as ApiResult<T>["body"] };
  };
}

export async function mintTestKey(
  db: PrismaClient,
  options: { organizationId: string | null; scopes: string[]; rateLimit?: number; rateLimitWindowSeconds?: number; name?: string },
) {
  const key = await mintApiKey(db, CLI_OPERATOR, {
    name: options.name ?? "test key",
    scopes: options.scopes,
    organizationId: options.organizationId,
    rateLimit: options.rateLimit,
  });
  if (options.rateLimitWindowSeconds === undefined) return key;
  // Minting always uses the default window; tests need short ones, so the column is set directly.
  await db.apiKey.update({ where: { id: key.id }, data: { rateLimitWindowSeconds: options.rateLimitWindowSeconds } });
  return { ...key, rateLimitWindowSeconds: options.rateLimitWindowSeconds };
}
