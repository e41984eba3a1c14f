import { isRootClient } from "@/server/db/transaction";
import type { Db } from "@/server/db/types";
import type { ApiKeyPrincipal } from "@/server/modules/api-keys/principal";
import { parseIdempotencyKey, requestFingerprint } from "@/server/modules/idempotency/fingerprint";
import { runIdempotent } from "@/server/modules/idempotency/run-idempotent";
import type { ApiContext } from "./context";

const IDEMPOTENT_METHODS = new Set(["POST", "PATCH"]);

/** What a tRPC middleware's `next()` resolves to, as far as the stored answer needs it. */
interface NextResult {
  ok: boolean;
  data?: unknown;
}

/**
 * The rest of a procedure call, idempotently: `Idempotency-Key` on POST and PATCH (ignored on
 * GET) runs the operation in a transaction with its stored response, or replays the stored
 * response with X-Idempotent-Replay. `next(db)` continues the call on `db`: the rest of tRPC's
 * chain, or the pipeline's direct call of the procedure (call-procedure.ts); either settles to
 * `{ ok, data }` rather than throwing, so a failed write rolls back without storing an answer.
 * NOTE: a step of the one access chain (access-chain.ts), not a middleware of its own: every level
 * of tRPC's chain copies the call's options twice, and most calls are reads that skip this.
 */
export function continueIdempotently<R extends NextResult>(
  ctx: ApiContext,
  principal: ApiKeyPrincipal,
  successStatus: number,
  next: (db: Db) => Promise<R>,
): Promise<R> {
  // NOTE: not async: a read goes on without a promise of this function's own (D354).
  const method = ctx.req.method;
  if (!IDEMPOTENT_METHODS.has(method)) return next(ctx.db);
  return continueWrite(ctx, principal, successStatus, next);
}

async function continueWrite<R extends NextResult>(
  ctx: ApiContext,
  principal: ApiKeyPrincipal,
  successStatus: number,
  next: (db: Db) => Promise<R>,
): Promise<R> {
  const method = ctx.req.method;
  const key = parseIdempotencyKey(ctx.req.headers.get("idempotency-key"));
  const db = ctx.db;
  if (key === null || !isRootClient(db)) return next(db);

  const fingerprint = requestFingerprint(method, ctx.req.pathname, ctx.rawBody.bytes);
  const outcome = await runIdempotent<R>(
    db,
    { apiKeyId: principal.keyId, key, fingerprint },
    async (tx) => {
      const result = await next(tx);
      return { ok: result.ok, value: result, statusCode: successStatus, body: () => JSON.stringify(result.ok ? result.data : null) };
    },
    { enter: ctx.enterKeySlot },
  );
  if (outcome.kind !== "replayed") return outcome.value;

  ctx.response.headers["X-Idempotent-Replay"] = "true";
  // NOTE: a middleware may answer without calling next(); this is the shape tRPC's own
  // resolver returns. The stored body is the exact JSON the first answer sent.
  return { marker: "middlewareMarker", ok: true, data: JSON.parse(outcome.body) as unknown, ctx } as unknown as R;
}
