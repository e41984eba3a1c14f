import pg from "pg";

// For the backup round trip: what "the same database" means, and a target a managed Postgres would give.

/** Every table's row count and a digest of its rows as text (UTC), the backup's own audit events aside. */
export async function digests(url: string): Promise<Record<string, string>> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query("SET TimeZone = 'UTC'");
    const { rows: tables } = await client.query<{ name: string }>(
      "SELECT relname AS name FROM pg_class WHERE relnamespace = current_schema()::regnamespace AND relkind = 'r' ORDER BY relname",
    );
    const out: Record<string, string> = {};
    for (const { name } of tables) {
      const where = name === "audit_events" ? "WHERE action NOT LIKE 'backup.%'" : "";
      const { rows } = await client.query<{ n: string; digest: string | null }>(
        `SELECT count(*)::text AS n, md5(string_agg(t::text, E'\\n' ORDER BY t::text)) AS digest FROM "${name}" t ${where}`,
      );
      out[name] = `${rows[0]?.n} ${rows[0]?.digest}`;
    }
    return out;
  } finally {
    await client.end();
  }
}

/** A database owned by a fresh role without superuser rights, and its URL as that role. */
export async function ownedDatabase(adminUrl: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const role = `gw_owner_${Math.random().toString(36).slice(2, 10)}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE ROLE ${role} LOGIN NOSUPERUSER`);
  await admin.query(`CREATE DATABASE ${role} OWNER ${role}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.username = role;
  url.pathname = `/${role}`;
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${role} WITH (FORCE)`);
      await client.query(`DROP ROLE IF EXISTS ${role}`);
      await client.end();
    },
  };
}
