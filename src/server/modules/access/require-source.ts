import type { DataSource } from "@/server/db/generated/client";
import type { Db } from "@/server/db/types";
import { AppError } from "@/server/errors/app-error";
import { withinReach, type ActingPrincipal } from "./acting-principal";

/**
 * The source, if it is within the principal's reach; a source of another organization answers
 * exactly like one that does not exist, so ids cannot be probed across tenants.
 */
export async function requireSource(db: Db, principal: ActingPrincipal, sourceId: string): Promise<DataSource> {
  const source = await db.dataSource.findFirst({ where: { id: sourceId, ...withinReach(principal), deletingAt: null } });
  if (!source) throw new AppError("not_found", `No data source ${sourceId}.`);
  return source;
}
