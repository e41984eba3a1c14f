import type { PrismaClient } from "@/server/db/types";

type SyncPhase = "connecting" | "reading" | "reconciling";

export interface ProgressWriter {
  report(phase: SyncPhase, rowsRead: number): void;
  /** Resolves once the last reported progress is written (or failed). */
  settle(): Promise<void>;
}

/**
 * Live progress of a running pass on its sync run row.
 *
 * NOTE: written through the client, i.e. on a connection other than the pass's transaction, and
 * committed at once, so a reader sees it while the pass is still open. Writes are coalesced
 * (at most one in flight; only the latest report waits behind it), never block the pass, and
 * only touch a run still marked running: a late write cannot reopen a finished run. Progress is
 * best effort; a failed write is dropped, never the pass.
 */
export function createProgressWriter(db: PrismaClient, runId: string): ProgressWriter {
  let pending: { phase: SyncPhase; rowsRead: number } | null = null;
  let inFlight: Promise<void> = Promise.resolve();
  let writing = false;

  const drain = async (): Promise<void> => {
    writing = true;
    while (pending) {
      const next = pending;
      pending = null;
      await db.syncRun
        .updateMany({ where: { id: runId, status: "running" }, data: { phase: next.phase, rowsRead: next.rowsRead, progressAt: new Date() } })
        .catch(() => undefined);
    }
    writing = false;
  };

  return {
    report(phase, rowsRead) {
      pending = { phase, rowsRead };
      if (!writing) inFlight = drain();
    },
    settle: () => inFlight,
  };
}
