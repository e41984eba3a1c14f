import { isRootClient } from "@/server/db/transaction";
import type { ApiKeyPrincipal } from "@/server/modules/api-keys/principal";
import { parseIdempotencyKey, requestFingerprint } from "@/server/modules/idempotency/fingerprint";
import { runIdempotent } from "@/server/modules/idempotency/run-idempotent";
import type { ApiContext } from "./context";
import { middleware } from "./trpc";

const IDEMPOTENT_METHODS = new Set(["POST", "PATCH"]);

/**
 * `Idempotency-Key` on POST and PATCH (ignored on GET): the operation runs in a transaction
 * with its stored response, or the stored response is replayed with X-Idempotent-Replay.
 */
export const idempotencyMiddleware = middleware(async (opts) => {
  const ctx = opts.ctx as ApiContext & { principal: ApiKeyPrincipal };
  const method = ctx.req.method;
  if (!IDEMPOTENT_METHODS.has(method)) return opts.next();
  const key = parseIdempotencyKey(ctx.req.headers.get("idempotency-key"));
  const db = ctx.db;
  if (key === null || !isRootClient(db)) return opts.next();

  const fingerprint = requestFingerprint(method, ctx.req.pathname, ctx.rawBody.bytes);
  const status = opts.meta?.successStatus ?? 200;
  type Result = Awaited<ReturnType<typeof opts.next>>;
  const outcome = await runIdempotent<Result>(
    db,
    { apiKeyId: ctx.principal.keyId, key, fingerprint },
    async (tx) => {
      const result = await opts.next({ ctx: { db: tx } });
      return { ok: result.ok, value: result, statusCode: status, body: () => JSON.stringify(result.ok ? result.data : null) };
    },
    { enter: ctx.enterKeySlot },
  );
  if (outcome.kind !== "replayed") return outcome.value;

  ctx.response.headers["X-Idempotent-Replay"] = "true";
  // NOTE: a middleware may answer without calling next(); this is the shape tRPC's own
  // resolver returns. The stored body is the exact JSON the first answer sent.
  return { marker: "middlewareMarker", ok: true, data: JSON.parse(outcome.body) as unknown, ctx: opts.ctx } as unknown as Result;
});
