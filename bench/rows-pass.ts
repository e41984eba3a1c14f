import pg from "pg";
import { lockSourceForWriteRaw } from "@/server/modules/data-sources/source-lock";
import { analyzeRows, shouldAnalyze } from "@/server/modules/data-sources/sync/statistics";

/**
 * A pass that changes a tenth of the rows source's live rows (every row whose external id ends
 * in 3: new data, a new hash, the pass's stamp), written the way every writer writes: one
 * transaction under the source lock, which stamps it and begins the versioned write (so the
 * trigger keeps the rows it replaces as versions, D90), then the statistics refresh a pass of
 * this share triggers (D136). Only the reconcile is stated directly as its UPDATE: the sync
 * engine's own cost is the sync benchmark's business, and a real pass over this source would
 * rewrite every row (the seeded rows do not match the customer table's columns).
 * Returns the rows changed (= versions kept).
 */
export async function tenPercentPass(appUrl: string, sourceId: string): Promise<number> {
  const client = new pg.Client({ connectionString: appUrl });
  await client.connect();
  try {
    await client.query("BEGIN");
    const stamp = await lockSourceForWriteRaw(client, sourceId);
    const before = await client.query<{ live: number }>("SELECT count(*)::int AS live FROM data_source_rows WHERE data_source_id = $1 AND deleted_at IS NULL", [
      sourceId,
    ]);
    const changed = await client.query(
      `UPDATE data_source_rows
          SET data = data || jsonb_build_object('score', (data->>'score')::int + 1),
              data_hash = md5(data_hash), updated_at = $2
        WHERE data_source_id = $1 AND deleted_at IS NULL AND external_id LIKE '%3'`,
      [sourceId, stamp],
    );
    const changedRows = changed.rowCount ?? 0;
    await client.query("COMMIT");
    if (shouldAnalyze({ firstPass: false, changedRows, rowsBefore: before.rows[0]!.live })) await analyzeRows(client);
    return changedRows;
  } catch (error) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw error;
  } finally {
    await client.end();
  }
}

/**
 * After the request log's bulk inserts (120 000 rows): VACUUM (ANALYZE) its tables, then
 * CHECKPOINT (D350). Left to autovacuum and the checkpointer, they ran during the next
 * throughput rounds, on whichever server was loaded then.
 */
export async function settleRequestLog(url: string, log: (line: string) => void = () => undefined): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query("VACUUM (ANALYZE) request_log, request_usage_hourly");
  } finally {
    await client.end();
  }
  await checkpoint(url, log);
}

/**
 * CHECKPOINT after a bulk write (D336): otherwise the checkpointer writes its gigabyte of dirty
 * buffers during whatever is measured next. Best effort: it needs a superuser or pg_checkpoint
 * (the bench's embedded server has one; a server named by DATABASE_URL may not).
 */
export async function checkpoint(url: string, log: (line: string) => void = () => undefined): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query("CHECKPOINT");
  } catch (error) {
    log(`CHECKPOINT skipped: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    await client.end();
  }
}
