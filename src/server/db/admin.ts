import { randomBytes } from "node:crypto";
import pg from "pg";

// Server-level chores shared by the embedded server, the test harness and the migration tooling:
// databases are created and dropped by name on a connection to another database of the same server.

/** The same server and credentials, another database. */
export function databaseUrl(serverUrl: string, database: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${encodeURIComponent(database)}`;
  return url.toString();
}

export function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** `prefix_<12 hex>`: unique enough for throwaway databases, and a valid unquoted identifier. */
export function randomDatabaseName(prefix: string): string {
  return `${prefix}_${randomBytes(6).toString("hex")}`;
}

export async function withClient<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  // NOTE: a query in flight rejects on its own; this only keeps an error on an idle client
  // (server shut down between two queries) from becoming an uncaught exception.
  client.on("error", () => undefined);
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end().catch(() => undefined);
  }
}

export async function createDatabase(adminUrl: string, name: string, options: { template?: string } = {}): Promise<void> {
  const template = options.template ? ` TEMPLATE ${quoteIdent(options.template)}` : "";
  await withClient(adminUrl, (client) => client.query(`CREATE DATABASE ${quoteIdent(name)}${template}`));
}

/** Drops even while clients are still connected (they are terminated): teardown must not hang on a leak. */
export async function dropDatabase(adminUrl: string, name: string): Promise<void> {
  await withClient(adminUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${quoteIdent(name)} WITH (FORCE)`));
}

export async function ensureDatabase(adminUrl: string, name: string): Promise<void> {
  await withClient(adminUrl, async (client) => {
    const existing = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [name]);
    if (existing.rowCount) return;
    try {
      await client.query(`CREATE DATABASE ${quoteIdent(name)}`);
    } catch (error) {
      // 42P04 duplicate_database: a concurrent starter created it first, which is just as good.
      if ((error as { code?: string }).code !== "42P04") throw error;
    }
  });
}

export async function listDatabases(adminUrl: string, pattern: RegExp): Promise<string[]> {
  const { rows } = await withClient(adminUrl, (client) => client.query<{ datname: string }>("SELECT datname FROM pg_database WHERE NOT datistemplate"));
  return rows.map((row) => row.datname).filter((name) => pattern.test(name));
}
