import { capSyncError } from "@/server/modules/outbound/redact";
import { Prisma } from "@/server/db/generated/client";
import type { PrismaClient } from "@/server/db/types";
import { lockSourceForWrite, SOURCE_TRANSACTION_OPTIONS } from "../source-lock";
import { attemptColumns, type PassAttempt } from "../capture/pass-capture";
import { PassTimeoutError } from "./pass-connection";

export const INTERNAL_ERROR = "The sync failed on an internal error; the worker log has the details. Nothing was changed.";

/** The pass outlived its limit and was rolled back (its own connection, or Prisma's P2028 for a Prisma transaction). */
export function isTransactionTimeout(error: unknown): boolean {
  if (error instanceof PassTimeoutError) return true;
  return error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2028";
}

export function abortedPassReason(error: unknown, maxPassMs: number): string {
  if (!isTransactionTimeout(error)) return INTERNAL_ERROR;
  const limit = maxPassMs % 60_000 === 0 ? `${maxPassMs / 60_000} min` : `${maxPassMs / 1000} s`;
  return `The pass did not finish within ${limit} and was rolled back; nothing was changed. Try a larger batch size or a smaller table.`;
}

/**
 * When the pass's own transaction is lost (timeout, our database gone), its failure is written
 * in a fresh transaction under the source lock, and only while its run is still marked
 * running: a newer pass that already took over (and marked it interrupted) has the last word
 * on the source's status.
 */
export async function recordAbortedPass(db: PrismaClient, sourceId: string, runId: string, reason: string, attempt: PassAttempt | null = null): Promise<void> {
  reason = capSyncError(reason);
  // How the pass was reading when it was cut short (D339), when it had got that far.
  const capture = attempt ? attemptColumns(attempt) : {};
  await db.$transaction(
    async (tx) => {
      await lockSourceForWrite(tx, sourceId);
      const finishedAt = new Date();
      const { count } = await tx.syncRun.updateMany({
        where: { id: runId, status: "running" },
        data: { status: "error", error: reason, finishedAt, phase: null, ...capture },
      });
      if (count === 0) return;
      await tx.dataSource.update({ where: { id: sourceId }, data: { syncStatus: "error", syncError: reason, updatedAt: finishedAt } });
    },
    { ...SOURCE_TRANSACTION_OPTIONS },
  );
}
