import type { PrismaClient } from "@/server/db/types";

/**
 * The port through which a sync pass reports that a source's state may have changed (D537).
 * The pass knows nothing of who listens: the alerts module subscribes (alertOnSourceState) where
 * a process is composed, the worker and the CLI, so data-sources never imports alerts.
 */
export type SourceStateListener = (db: PrismaClient, sourceId: string, log?: (message: string) => void) => Promise<void>;

const listeners = new Set<SourceStateListener>();

/** Subscribes once per listener (a second call with the same function is a no-op); returns the unsubscribe. */
export function onSourceStateChange(listener: SourceStateListener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Called once a pass's result is committed. A listener's failure never fails the pass: it is logged. */
export async function announceSourceState(db: PrismaClient, sourceId: string, log?: (message: string) => void): Promise<void> {
  for (const listener of listeners) {
    try {
      await listener(db, sourceId, log);
    } catch (error) {
      log?.(`a listener of data source ${sourceId}'s state failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}
