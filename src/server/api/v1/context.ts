import type { Db } from "@/server/db/types";
import type { RawBody } from "@/server/transport/read-body";
import type { ApiKeyPrincipal } from "@/server/modules/api-keys/principal";
import type { RateLimitStore } from "@/server/modules/rate-limit/rate-limit-store";

/**
 * Response facts a procedure or middleware decides (headers such as X-Idempotent-Replay).
 * NOTE: a shared mutable holder, because tRPC middlewares copy ctx: a value stored on a
 * spread ctx would never reach responseMeta.
 */
export interface ResponseHolder {
  headers: Record<string, string>;
}

/** What a procedure may read of the request itself (the idempotent write's fingerprint). */
interface ApiRequestHead {
  method: string;
  pathname: string;
  headers: { get(name: string): string | null };
}

export interface ApiContext {
  requestId: string;
  req: ApiRequestHead;
  rawBody: RawBody;
  db: Db;
  rateLimiter: RateLimitStore;
  response: ResponseHolder;
  /** The caller, identified (and charged) by the pipeline before it read the body; none for a public operation. */
  principal?: ApiKeyPrincipal;
  /**
   * The key's concurrency gate (D45), when the pipeline left it to continueIdempotently
   * (writes with an Idempotency-Key queue per key first and enter the gate when their turn comes).
   */
  enterKeySlot?: () => Promise<() => void>;
}
