import type { PrismaClient } from "@/server/db/types";
import { onSourceStateChange } from "@/server/modules/data-sources/sync/source-state-listeners";
import { LINK_BASE } from "./alert-message";
import { enqueueDeliveries } from "./alert-queue";
import { evaluateSourceAlerts } from "./evaluate-source";

/**
 * What alerts do when a sync pass reports a source's state (D212): announce a transition at
 * once rather than at the next tick. Never fails the pass: on any error the tick catches up.
 */
async function noteSourceState(db: PrismaClient, sourceId: string, log?: (message: string) => void): Promise<void> {
  try {
    const ids = await evaluateSourceAlerts(db, sourceId, { baseUrl: LINK_BASE });
    if (ids.length > 0) await enqueueDeliveries(db, ids);
  } catch (error) {
    log?.(`alerts for data source ${sourceId} not evaluated (the next alert tick retries): ${error instanceof Error ? error.message : String(error)}`);
  }
}

/**
 * Subscribes alerts to the sync pass's state reports (D537). Called where a process is composed
 * (the worker, the CLI); idempotent, and each call's unsubscribe ends only its own. A process that runs passes without it still alerts, at the
 * next alert tick.
 */
export function alertOnSourceState(): () => void {
  return onSourceStateChange(noteSourceState);
}
