import { z } from "zod";
import type { Db } from "@/server/db/types";
import { AppError } from "@/server/errors/app-error";
import type { ActingPrincipal } from "../access/acting-principal";
import { connectorTargets, type ConnectorDeps } from "./connectors/connector-for-source";
import { discoverPostgres, type Discovery } from "./connectors/postgres-table/discover-postgres";
import { parsePostgresUrl, postgresUrl } from "./connectors/targets/postgres-target";
import { openCredentials } from "./credentials/source-credentials";
import { mergePostgresConnection, postgresConnectionEditSchema, requireSecretForNewDestination } from "./manage/edit-connection";
import { requireSource } from "@/server/modules/access/require-source";
import { describeIssues, postgresCredentialsSchema, postgresTableConfigSchema, storedPostgresCredentialsSchema } from "./source-config";
import { DEFAULT_TIMEOUT_MS } from "./sync/run-sync-pass";
import { testConnection, type ConnectionCheck } from "./test-connection";

const discoverSourceInputSchema = z.object({
  credentials: postgresCredentialsSchema,
  /** A table to list the columns of (`schema.table`). */
  table: z.string().trim().max(400).nullish(),
  /** With a table: the key to probe the capture modes with; default the suggested key. */
  keyColumn: z.string().trim().min(1).max(63).nullish(),
});
export type DiscoverSourceInput = z.input<typeof discoverSourceInputSchema>;

export type SourceDiscovery =
  | ({ ok: true } & Discovery & {
        /** With a table and a key: the connection test a create runs (rows read, capture modes, the best one). */
        check: ConnectionCheck | null;
      })
  | { ok: false; reason: string };

/**
 * The create form's "Test connection" (D493): the readable tables, then a chosen table's columns,
 * then, once a key is known, the same probe "Test connection" always ran (capture modes, best
 * first). Expected failures (bad field, refused target, wrong password) are values with a
 * secret-free reason; nothing is stored.
 */
export async function discoverSource(deps: ConnectorDeps, input: DiscoverSourceInput, timeoutMs = DEFAULT_TIMEOUT_MS): Promise<SourceDiscovery> {
  const parsed = discoverSourceInputSchema.safeParse(input);
  if (!parsed.success) return { ok: false, reason: `Invalid settings: ${describeIssues(parsed.error)}` };
  return discoverWith(deps, parsed.data.credentials.url, parsed.data.table ?? null, parsed.data.keyColumn ?? null, timeoutMs);
}

/**
 * The edit form's "Test connection": the stored connection with the form's changes laid over it.
 * A changed destination (host, port, database, user) needs the password again (D360), refused
 * before any contact as the edit itself is. The table is the source's own (fixed).
 */
export async function discoverSavedSource(
  deps: ConnectorDeps & { db: Db },
  principal: ActingPrincipal,
  sourceId: string,
  connection: unknown,
  timeoutMs = DEFAULT_TIMEOUT_MS,
): Promise<SourceDiscovery> {
  const source = await requireSource(deps.db, principal, sourceId);
  if (source.kind !== "postgres_table")
    throw new AppError("bad_request", `Data source ${sourceId} is not a Postgres table; only those list tables and columns.`);
  const edit = postgresConnectionEditSchema.safeParse(connection ?? {});
  if (!edit.success) throw new AppError("bad_request", `connection: ${describeIssues(edit.error)}`);
  const config = postgresTableConfigSchema.safeParse(source.config);
  if (!config.success) return { ok: false, reason: `the source configuration is invalid: ${describeIssues(config.error)}` };
  const stored = openCredentials(deps.secrets, source.id, source.credentialsEncrypted);
  if (!stored.ok) return { ok: false, reason: stored.reason };
  const url = storedPostgresCredentialsSchema.safeParse(stored.value);
  const target = url.success ? parsePostgresUrl(url.data.url) : null;
  if (!target?.ok) return { ok: false, reason: "the stored connection URL cannot be read" };
  const merged = mergePostgresConnection(target.value, edit.data);
  requireSecretForNewDestination("postgres_table", merged.changed, edit.data.password, target.value.password !== null);
  return discoverWith(deps, postgresUrl(merged.target), config.data.table, config.data.keyColumn, timeoutMs);
}

async function discoverWith(deps: ConnectorDeps, url: string, table: string | null, keyColumn: string | null, timeoutMs: number): Promise<SourceDiscovery> {
  const discovery = await discoverPostgres({ url }, { table, targets: connectorTargets(deps), timeoutMs });
  if (!discovery.ok) return { ok: false, reason: discovery.reason };
  const key = keyColumn ?? discovery.value.suggestedKey;
  const probed = table !== null && key !== null && discovery.value.columns?.some((column) => column.name === key);
  const check = probed
    ? await testConnection(
        deps,
        { kind: "postgres_table", config: { table: table!, keyColumn: key!, orderColumn: null, columns: null }, credentials: { url } },
        timeoutMs,
      )
    : null;
  return { ok: true, ...discovery.value, check };
}
