import type pg from "pg";

/**
 * `backup restore --force`: drops what the migrations create in the current schema (tables with
 * their partitions and sequences, views, enum types, functions) so they can be applied afresh.
 * The schema itself stays (its owner and grants are the operator's).
 */
export async function dropServiceSchema(client: pg.Client, log: (message: string) => void): Promise<void> {
  const { rows } = await client.query<{ statement: string }>(
    `SELECT format('DROP VIEW IF EXISTS %I CASCADE', c.relname) AS statement FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = current_schema() AND c.relkind IN ('v', 'm')
     UNION ALL
     SELECT format('DROP TABLE IF EXISTS %I CASCADE', c.relname) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p') AND NOT c.relispartition
     UNION ALL
     SELECT format('DROP SEQUENCE IF EXISTS %I CASCADE', c.relname) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = current_schema() AND c.relkind = 'S'
     UNION ALL
     SELECT format('DROP TYPE IF EXISTS %I CASCADE', t.typname) FROM pg_type t JOIN pg_namespace n ON n.oid = t.typnamespace
      WHERE n.nspname = current_schema() AND t.typtype = 'e'
     UNION ALL
     SELECT format('DROP FUNCTION IF EXISTS %s CASCADE', p.oid::regprocedure) FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
      WHERE n.nspname = current_schema() AND p.prokind = 'f'`,
  );
  log(`restore --force: dropping ${rows.length} objects of the service's schema`);
  await client.query("BEGIN");
  try {
    for (const { statement } of rows) await client.query(statement);
    await client.query("COMMIT");
  } catch (error) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw error;
  }
}
