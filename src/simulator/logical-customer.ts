import { openLogicalDatabase, type LogicalDatabase } from "@/server/modules/data-sources/capture/cdc/testing/logical-server";

/**
 * The customer's server for mode cdc: a wal_level = logical embedded Postgres under
 * .data/sim-cdc-postgres, holding one fresh database for the whole simulation.
 */
export function openLogicalCustomer(repoRoot: string): Promise<LogicalDatabase> {
  return openLogicalDatabase({ repoRoot, dirName: "sim-cdc-postgres", namePrefix: "gw_simcdc", maxSlots: 20 });
}
