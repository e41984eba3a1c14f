import type { DataSource } from "@/server/db/generated/client";
import type { Db } from "@/server/db/types";
import { AppError } from "@/server/errors/app-error";

/**
 * The source, if it belongs to the organization; a source of another organization answers
 * exactly like one that does not exist, so ids cannot be probed across tenants.
 */
export async function requireSource(db: Db, organizationId: string, sourceId: string): Promise<DataSource> {
  const source = await db.dataSource.findFirst({ where: { id: sourceId, organizationId } });
  if (!source) throw new AppError("not_found", `No data source ${sourceId} in organization ${organizationId}.`);
  return source;
}
