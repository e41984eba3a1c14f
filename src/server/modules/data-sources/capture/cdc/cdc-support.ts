import type pg from "pg";
import type { TableName } from "../../connectors/postgres-table/identifiers";

/** The publication Groundwork looks for first; any other publication covering the table also works. */
const DEFAULT_PUBLICATION = "groundwork";

export type CdcSupport = { supported: true; publication: string } | { supported: false; reason: string };

/**
 * Whether a customer's database lets a source use logical replication (docs/postgres-sources.md),
 * and if not, what the customer's DBA must grant, in words. Read-only catalog queries on a plain
 * connection: the connection test and the consumer (before it creates a slot) call it. Without
 * a slot name (a source not created yet) a free slot is required.
 */
export async function cdcSupport(client: pg.ClientBase, table: TableName, keyColumn: string, slotName: string | null = null): Promise<CdcSupport> {
  const shown = `${table.schema}.${table.table}`;
  const { rows: settings } = await client.query<{ wal_level: string; free_slots: number; slot_exists: boolean; may_replicate: boolean }>(
    `SELECT current_setting('wal_level') AS wal_level,
            current_setting('max_replication_slots')::int - (SELECT count(*)::int FROM pg_replication_slots) AS free_slots,
            EXISTS (SELECT 1 FROM pg_replication_slots WHERE slot_name = $1::text) AS slot_exists,
            (SELECT rolreplication OR rolsuper FROM pg_roles WHERE rolname = current_user)
              -- Amazon RDS / Aurora grant replication through membership of rds_replication.
              OR EXISTS (SELECT 1 FROM pg_roles r WHERE r.rolname = 'rds_replication' AND pg_has_role(current_user, r.oid, 'member')) AS may_replicate`,
    [slotName],
  );
  const s = settings[0]!;
  if (s.wal_level !== "logical") return no(`the server's wal_level is ${s.wal_level}; logical replication needs wal_level = logical (a restart is needed)`);
  // A slot provisioned for us by the DBA is enough to go on; without one we must be able to create it.
  if (!s.may_replicate && !s.slot_exists) return no(`the user has no REPLICATION attribute (ALTER ROLE … WITH REPLICATION)`);
  if (!s.slot_exists && s.free_slots <= 0) return no("every replication slot is in use (raise max_replication_slots)");

  const { rows: publications } = await client.query<{ pubname: string }>(
    `SELECT pubname FROM pg_publication_tables WHERE schemaname = $1 AND tablename = $2 ORDER BY pubname <> $3, pubname LIMIT 1`,
    [table.schema, table.table, DEFAULT_PUBLICATION],
  );
  const publication = publications[0]?.pubname;
  if (!publication) return no(`no publication covers ${shown} (CREATE PUBLICATION ${DEFAULT_PUBLICATION} FOR TABLE ${shown})`);

  const identity = await replicaIdentity(client, table, keyColumn);
  if (identity !== null) return no(identity);
  return { supported: true, publication };
}

/**
 * Deletes (and key changes) must name the key column, or the stream cannot say which row went:
 * the table's replica identity must contain the key column, or be FULL. Null when it does.
 */
async function replicaIdentity(client: pg.ClientBase, table: TableName, keyColumn: string): Promise<string | null> {
  const { rows } = await client.query<{ identity: string; key_in_identity: boolean }>(
    `SELECT c.relreplident AS identity,
            EXISTS (
              SELECT 1 FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY (i.indkey)
               WHERE i.indrelid = c.oid AND a.attname = $3
                 AND ((c.relreplident = 'd' AND i.indisprimary) OR (c.relreplident = 'i' AND i.indisreplident))
            ) AS key_in_identity
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = $1 AND c.relname = $2 AND c.relkind IN ('r', 'p')`,
    [table.schema, table.table, keyColumn],
  );
  const row = rows[0];
  const shown = `${table.schema}.${table.table}`;
  if (!row) return `${shown} is not a table (views cannot be replicated)`;
  if (row.identity === "f" || row.key_in_identity) return null;
  if (row.identity === "n") return `${shown} has REPLICA IDENTITY NOTHING; deletions could not be seen`;
  return `the key column "${keyColumn}" is not in the replica identity of ${shown} (make it the primary key, or ALTER TABLE … REPLICA IDENTITY FULL)`;
}

function no(reason: string): CdcSupport {
  return { supported: false, reason };
}
