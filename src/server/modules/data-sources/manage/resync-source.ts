import type { Db } from "@/server/db/types";
import type { ActingPrincipal } from "../../access/acting-principal";
import { requestSourceSync } from "../sync-queue";

/**
 * Re-read everything (D137): queues a pass that reads and compares every row, even where the
 * incremental (keyed) path would skip unchanged ones. It reconciles through ordinary updates and
 * tombstones (under the delete guardrail) and never moves data_version (spec 2.3).
 */
export async function requestResync(db: Db, principal: ActingPrincipal, sourceId: string): Promise<{ requestedAt: Date }> {
  // requestSourceSync writes the one audit event (data_source.resync_requested).
  return requestSourceSync(db, principal, sourceId, "resync");
}
