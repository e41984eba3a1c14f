import type { PrismaClient } from "@/server/db/types";
import { LINK_BASE } from "./alert-message";
import { enqueueDeliveries } from "./alert-queue";
import { evaluateSourceAlerts } from "./evaluate-source";

/**
 * The hook a sync pass calls once its result is committed (D212): announce a transition at
 * once rather than at the next tick. Never fails the pass: on any error the tick catches up.
 */
export async function noteSourceState(db: PrismaClient, sourceId: string, log?: (message: string) => void): Promise<void> {
  try {
    const ids = await evaluateSourceAlerts(db, sourceId, { baseUrl: LINK_BASE });
    if (ids.length > 0) await enqueueDeliveries(db, ids);
  } catch (error) {
    log?.(`alerts for data source ${sourceId} not evaluated (the next alert tick retries): ${error instanceof Error ? error.message : String(error)}`);
  }
}
