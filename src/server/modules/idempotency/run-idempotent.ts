import type { Prisma, PrismaClient } from "@/server/db/types";
import { AppError } from "@/server/errors/app-error";
import { IDEMPOTENCY_WINDOW_MS } from "./fingerprint";
import { createSlotQueue } from "./slot-queue";

export interface IdempotentRequest {
  apiKeyId: string;
  key: string;
  fingerprint: string;
}

export type IdempotentOutcome<T> = { kind: "executed"; value: T } | { kind: "replayed"; statusCode: number; body: string } | { kind: "failed"; value: T };

/** How long a duplicate waits for the first request before it is told to retry later. */
const WAIT_FOR_FIRST_MS = 10_000;

/**
 * The answer to a duplicate that waited out WAIT_FOR_FIRST_MS while the first still runs: a 503
 * with Retry-After (D20). NOTE: not a 409, which the spec reserves for a different body and a
 * client therefore treats as final; a 503 is retried by every client that follows spec 7.
 */
function stillInFlight(): AppError {
  return new AppError("service_unavailable", "A request with this Idempotency-Key is still in progress; retry shortly.", {
    details: { header: "Idempotency-Key", reason: "in_progress" },
    headers: { "Retry-After": "1" },
  });
}

const inSlot = createSlotQueue(stillInFlight);

type Operation<T> = (tx: Prisma.TransactionClient) => Promise<{ ok: boolean; value: T; statusCode: number; body: () => string }>;

/**
 * Exactly-once writes. The operation runs inside a transaction that first takes a lock on
 * (API key, Idempotency-Key): concurrent duplicates queue (in-process first, see
 * ./slot-queue.ts, then on that lock across processes) and, once the first commits, find its
 * stored response and replay it; one still waiting after `waitMs` gets the in-flight 503.
 * The stored entry commits in the same transaction as the operation's writes, so a crash can
 * neither store a response for writes that did not happen nor let them happen twice. Only
 * successes are kept: a failure rolls back and leaves the key free for a retry.
 */
export async function runIdempotent<T>(
  db: PrismaClient,
  request: IdempotentRequest,
  operation: Operation<T>,
  options: { waitMs?: number; enter?: () => Promise<() => void> } = {},
): Promise<IdempotentOutcome<T>> {
  const waitMs = options.waitMs ?? WAIT_FOR_FIRST_MS;
  const deadline = Date.now() + waitMs;
  return inSlot(`${request.apiKeyId}:${request.key}`, waitMs, async () => {
    // NOTE: `enter` (the caller's per-key concurrency gate) is taken only once this request's
    // turn has come: duplicates queued behind a slow first one must not use up the gate.
    const leave = await options.enter?.();
    try {
      return await runLocked(db, request, operation, Math.max(1, deadline - Date.now()));
    } finally {
      leave?.();
    }
  });
}

async function runLocked<T>(db: PrismaClient, request: IdempotentRequest, operation: Operation<T>, lockWaitMs: number): Promise<IdempotentOutcome<T>> {
  const rollback = Symbol("rollback");
  let failed: T | undefined;
  try {
    return await db.$transaction(
      async (tx): Promise<IdempotentOutcome<T>> => {
        await tx.$executeRawUnsafe(`SET LOCAL lock_timeout = '${Math.round(lockWaitMs)}ms'`);
        await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`idempotency:${request.apiKeyId}:${request.key}`}, 0))`;
        // The bound is for waiting on another request with this key, not for the operation's own locks.
        await tx.$executeRawUnsafe("SET LOCAL lock_timeout TO DEFAULT");
        const existing = await tx.idempotencyEntry.findUnique({
          where: { apiKeyId_key: { apiKeyId: request.apiKeyId, key: request.key } },
        });
        if (existing && existing.expiresAt > new Date()) {
          if (existing.fingerprint !== request.fingerprint) {
            throw new AppError("conflict", "This Idempotency-Key was already used with a different request.", {
              details: { header: "Idempotency-Key" },
            });
          }
          return { kind: "replayed", statusCode: existing.statusCode, body: existing.responseBody } as const;
        }
        if (existing) await tx.idempotencyEntry.delete({ where: { id: existing.id } });

        const result = await operation(tx);
        if (!result.ok) {
          failed = result.value;
          throw rollback;
        }
        // One clock for both ends: the window is exactly IDEMPOTENCY_WINDOW_MS long.
        const now = Date.now();
        await tx.idempotencyEntry.create({
          data: {
            apiKeyId: request.apiKeyId,
            key: request.key,
            fingerprint: request.fingerprint,
            statusCode: result.statusCode,
            responseBody: result.body(),
            createdAt: new Date(now),
            expiresAt: new Date(now + IDEMPOTENCY_WINDOW_MS),
          },
        });
        return { kind: "executed", value: result.value } as const;
      },
      { maxWait: 30_000, timeout: 120_000 },
    );
  } catch (error) {
    if (error === rollback) return { kind: "failed", value: failed as T } as const;
    if (isLockTimeout(error)) throw stillInFlight();
    throw error;
  }
}

function isLockTimeout(error: unknown): boolean {
  const text = String((error as { message?: string })?.message ?? error);
  return text.includes("55P03") || text.includes("lock timeout") || text.includes("canceling statement due to lock timeout");
}
