import type { PrismaClient } from "@/server/db/types";

/**
 * The port through which a sync pass reports that a source's state may have changed (D537).
 * The pass knows nothing of who listens: the alerts module subscribes (alertOnSourceState) where
 * a process is composed, the worker and the CLI, so data-sources never imports alerts.
 */
export type SourceStateListener = (db: PrismaClient, sourceId: string, log?: (message: string) => void) => Promise<void>;

/** Each listener with the number of its subscriptions. */
const listeners = new Map<SourceStateListener, number>();

/**
 * Subscribes; returns the unsubscribe. A listener subscribed twice is told once, until its last
 * subscription ends: the CLI run in a test's process (D564) unsubscribes when it is done, and
 * must not take away a worker's subscription to the same function.
 */
export function onSourceStateChange(listener: SourceStateListener): () => void {
  listeners.set(listener, (listeners.get(listener) ?? 0) + 1);
  let subscribed = true;
  return () => {
    if (!subscribed) return;
    subscribed = false;
    const left = (listeners.get(listener) ?? 1) - 1;
    if (left > 0) listeners.set(listener, left);
    else listeners.delete(listener);
  };
}

/** Called once a pass's result is committed. A listener's failure never fails the pass: it is logged. */
export async function announceSourceState(db: PrismaClient, sourceId: string, log?: (message: string) => void): Promise<void> {
  for (const listener of [...listeners.keys()]) {
    try {
      await listener(db, sourceId, log);
    } catch (error) {
      log?.(`a listener of data source ${sourceId}'s state failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}
