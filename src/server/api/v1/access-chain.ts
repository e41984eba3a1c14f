import { AppError } from "@/server/errors/app-error";
import type { Db } from "@/server/db/types";
import { requireInstanceKey, requireOrganizationAccess, requireScope } from "@/server/modules/api-keys/api-key-authorize";
import type { ApiKeyPrincipal } from "@/server/modules/api-keys/principal";
import type { ApiContext } from "./context";
import { continueIdempotently } from "./continue-idempotently";
import type { ApiMeta } from "./meta";

/**
 * What the steps of the chain see of one call, and narrow for the steps after them: the
 * principal the access rules admitted, the client the rest of the call runs on (a transaction
 * for an idempotent write).
 */
export interface AccessCall {
  ctx: ApiContext;
  meta: ApiMeta | undefined;
  /** The input as sent, before its zod schema parsed it (read only for `orgParam`). */
  rawInput: unknown;
  principal?: ApiKeyPrincipal;
  db: Db;
}

/** What the rest of a call settles to: tRPC's middleware result (`next()` never throws). */
export interface Settled {
  ok: boolean;
  data?: unknown;
  error?: unknown;
}

/** A call the chain has admitted: its principal is known. */
export type AdmittedCall = AccessCall & { principal: ApiKeyPrincipal };

/** One step: checks the call, then continues it on a client (`rest(db)`), or answers without it. */
type AccessStep = <R extends Settled>(call: AccessCall, rest: (db: Db) => Promise<R>) => Promise<R>;

/**
 * The access rules of an /api/v1 call, in order: key (401) → instance binding → scope →
 * organization binding (403), all before input validation, so a caller without access learns
 * nothing about the input's shape. The key was identified and charged (401, 429) once, by the
 * pipeline before it read the body (ctx.principal); a call that did not come through it carries
 * no principal and is refused, never served unauthenticated.
 */
function authorizeApiCall(principal: ApiKeyPrincipal | undefined, meta: ApiMeta | undefined, rawInput: unknown): ApiKeyPrincipal {
  if (!principal) throw new AppError("unauthorized", "A valid API key is required.", { headers: { "WWW-Authenticate": "Bearer" } });
  if (meta?.access === "instance") requireInstanceKey(principal);
  if (meta?.scope) requireScope(principal, meta.scope);
  if (meta?.orgParam) {
    const organizationId = (rawInput as Record<string, unknown> | undefined)?.[meta.orgParam];
    if (typeof organizationId === "string") requireOrganizationAccess(principal, organizationId);
  }
  return principal;
}

const authorize: AccessStep = (call, rest) => {
  call.principal = authorizeApiCall(call.ctx.principal, call.meta, call.rawInput);
  return rest(call.db);
};

const idempotently: AccessStep = (call, rest) => continueIdempotently(call.ctx, call.principal!, call.meta?.successStatus ?? 200, rest);

/**
 * The one access chain of every /api/v1 procedure but a `public` one: defined once, run by the
 * pipeline (pipeline/call-procedure.ts, which runs a procedure's definition itself, D353) and by
 * apiProcedure's one tRPC middleware (trpc.ts) for any tRPC caller. A check every call
 * needs is added here, never as a middleware of a procedure: the pipeline refuses at start a
 * procedure with a middleware it does not know (src/server/api/trpc-internals.ts).
 */
const API_ACCESS_CHAIN: readonly AccessStep[] = [authorize, idempotently];

/**
 * Runs the chain, then `resolve` with the call as the steps left it. NOTE: no async and no
 * await of its own: a read passes both steps without a promise of the chain's (D354).
 */
export function runAccessChain<R extends Settled>(call: AccessCall, resolve: (call: AdmittedCall) => Promise<R>): Promise<R> {
  const from =
    (index: number) =>
    (db: Db): Promise<R> => {
      call.db = db;
      const step = API_ACCESS_CHAIN[index];
      if (step) return step(call, from(index + 1));
      // authorize, the first step, sets it or throws; a chain reordered without it fails here.
      if (!call.principal) throw new Error("The access chain ended without a principal");
      return resolve(call as AdmittedCall);
    };
  return from(0)(call.db);
}
