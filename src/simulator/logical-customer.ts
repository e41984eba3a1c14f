import path from "node:path";
import pg from "pg";
import { createDatabase, databaseUrl, dropDatabase, randomDatabaseName, withClient } from "@/server/db/admin";
import { startEmbeddedPostgres } from "@/server/db/embedded";

/**
 * The customer's server for mode cdc: an embedded Postgres with wal_level = logical under
 * .data/sim-cdc-postgres (the app's server runs with replica), holding one fresh database for
 * the whole simulation. Closing drops the slots still there (Postgres refuses to drop a database
 * with slots), then the database, then stops the server.
 */
export async function openLogicalCustomer(repoRoot: string): Promise<{ pool: pg.Pool; url: string; close(): Promise<void> }> {
  const server = await startEmbeddedPostgres({
    dataDir: path.join(repoRoot, ".data", "sim-cdc-postgres"),
    settings: { wal_level: "logical", max_replication_slots: "20", max_wal_senders: "20", fsync: "off", synchronous_commit: "off", full_page_writes: "off" },
  });
  const name = randomDatabaseName(`gw_simcdc_${process.pid}`);
  await createDatabase(server.adminUrl, name);
  const url = databaseUrl(server.adminUrl, name);
  const pool = new pg.Pool({ connectionString: url, max: 4 });
  pool.on("error", () => undefined);
  return {
    pool,
    url,
    async close() {
      await pool.end().catch(() => undefined);
      await withClient(server.adminUrl, async (client) => {
        await client.query(`SELECT pg_terminate_backend(active_pid) FROM pg_replication_slots WHERE database = $1 AND active`, [name]);
        await client.query(`SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots WHERE database = $1 AND NOT active`, [name]);
      }).catch(() => undefined);
      await dropDatabase(server.adminUrl, name).catch(() => undefined);
      await server.stop();
    },
  };
}
