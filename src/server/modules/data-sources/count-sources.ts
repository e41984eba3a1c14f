import type { Db } from "@/server/db/types";
import { staleSql } from "./list-sources";
import type { SourceState } from "./source-status";

export type SourceCounts = Record<SourceState, number> & { stale: number };

/** Every source of the instance by state, and how many are stale: what monitoring scrapes. */
export async function countSourcesByState(db: Db, now = new Date()): Promise<SourceCounts> {
  const rows = await db.$queryRaw<SourceCounts[]>`
    SELECT count(*) FILTER (WHERE s.sync_status = 'ok')::int AS ok,
           count(*) FILTER (WHERE s.sync_status = 'needs_attention')::int AS needs_attention,
           count(*) FILTER (WHERE s.sync_status = 'error')::int AS error,
           count(*) FILTER (WHERE s.sync_status IS NULL)::int AS never_synced,
           count(*) FILTER (WHERE ${staleSql(now)})::int AS stale
      FROM data_sources s WHERE s.deleting_at IS NULL`;
  return rows[0] ?? { ok: 0, needs_attention: 0, error: 0, never_synced: 0, stale: 0 };
}
