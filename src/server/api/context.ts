import type { PrismaClient } from "@/server/db/generated/client";
import type { RawBody } from "@/server/http/read-body";
import type { Logger } from "@/server/logger";

/**
 * Response facts a procedure or middleware decides (headers such as X-Idempotent-Replay).
 * NOTE: a shared mutable holder, because tRPC middlewares copy ctx: a value stored on a
 * spread ctx would never reach responseMeta.
 */
export interface ResponseHolder {
  headers: Record<string, string>;
}

export interface ApiContext {
  requestId: string;
  req: Request;
  rawBody: RawBody;
  db: PrismaClient;
  log: Logger;
  response: ResponseHolder;
}
