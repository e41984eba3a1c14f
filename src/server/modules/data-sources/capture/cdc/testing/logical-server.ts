import path from "node:path";
import pg from "pg";
import { createDatabase, databaseUrl, dropDatabase, randomDatabaseName, withClient } from "@/server/db/admin";
import { startEmbeddedPostgres } from "@/server/db/embedded";

export interface LogicalDatabase {
  readonly pool: pg.Pool;
  readonly url: string;
  /** Drops the slots still there (Postgres refuses to drop a database with slots), the database, then stops the server. */
  close(): Promise<void>;
}

/**
 * A customer's server for CDC: an embedded Postgres with wal_level = logical under
 * .data/<dirName> (the app's own servers run with replica), holding one fresh database. The
 * tests (logical-customer.ts) and the device simulator's cdc mode both open theirs here.
 */
export async function openLogicalDatabase(options: { repoRoot: string; dirName: string; namePrefix: string; maxSlots: number }): Promise<LogicalDatabase> {
  const slots = String(options.maxSlots);
  const server = await startEmbeddedPostgres({
    dataDir: path.join(options.repoRoot, ".data", options.dirName),
    settings: { wal_level: "logical", max_replication_slots: slots, max_wal_senders: slots, fsync: "off", synchronous_commit: "off", full_page_writes: "off" },
  });
  const name = randomDatabaseName(`${options.namePrefix}_${process.pid}`);
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
