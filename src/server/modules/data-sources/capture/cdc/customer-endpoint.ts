import type pg from "pg";
import type { DataSource } from "@/server/db/generated/client";
import { openCredentials } from "../../credentials/source-credentials";
import type { ConnectorDeps } from "../../connectors/connector-for-source";
import { customerClient } from "../../connectors/postgres-table/customer-client";
import { describePgError } from "../../connectors/postgres-table/describe-pg-error";
import { parseTableName, type TableName } from "../../connectors/postgres-table/identifiers";
import { checkPostgresTarget, parsePostgresUrl, type PostgresTarget } from "../../connectors/targets/postgres-target";
import { defaultConnectorTargets } from "@/server/modules/outbound/target-policy";
import { failure, success, type Result } from "@/server/modules/outbound/result";
import { describeIssues, postgresTableConfigSchema, storedPostgresCredentialsSchema, type PostgresTableConfig } from "../../source-config";

/**
 * The session settings of every CDC connection, as the table connector pins them: keys arrive
 * from pgoutput in the walsender's text output, which must print exactly as `key::text` does in
 * the connector's read (time zone, date and interval styles, float digits).
 */
const SESSION_OPTIONS = "-c TimeZone=UTC -c DateStyle=ISO,MDY -c IntervalStyle=postgres -c extra_float_digits=1";

/** Where a CDC source's customer database is, checked against the operator's target policy. */
export interface CdcEndpoint {
  config: PostgresTableConfig;
  table: TableName;
  target: PostgresTarget;
  /** The checked address to connect to (the host's name is kept for TLS). */
  address: string;
  /** A plain client (catalog checks, slot status, dropping the slot). */
  plainClient(timeoutMs: number): pg.Client;
  /** The config of a `replication=database` connection (slot creation, streaming). */
  replicationConfig(timeoutMs: number): pg.ClientConfig;
  describeError(error: unknown): string;
}

type CdcSource = Pick<DataSource, "id" | "kind" | "config" | "credentialsEncrypted">;

export async function cdcEndpoint(source: CdcSource, deps: Pick<ConnectorDeps, "secrets" | "targets">): Promise<Result<CdcEndpoint>> {
  if (source.kind !== "postgres_table") return failure("change data capture needs a Postgres table source");
  const config = postgresTableConfigSchema.safeParse(source.config);
  if (!config.success) return failure(`the source configuration is invalid: ${describeIssues(config.error)}`);
  const table = parseTableName(config.data.table);
  if (!table) return failure(`"${config.data.table}" is not a valid schema.table name`);
  const opened = openCredentials(deps.secrets, source.id, source.credentialsEncrypted);
  if (!opened.ok) return opened;
  const secret = storedPostgresCredentialsSchema.safeParse(opened.value);
  if (!secret.success) return failure("the stored connection URL is invalid");
  const parsed = parsePostgresUrl(secret.data.url);
  if (!parsed.ok) return parsed;
  const targets = deps.targets ?? defaultConnectorTargets();
  const address = await checkPostgresTarget(parsed.value, targets.policy, targets.serviceDatabaseUrl());
  if (!address.ok) return address;
  const target = parsed.value;
  return success({
    config: config.data,
    table,
    target,
    address: address.value,
    plainClient: (timeoutMs) => withoutCrash(customerClient(target, address.value, { timeoutMs, applicationName: "groundwork-cdc" })),
    replicationConfig: (timeoutMs) => replicationConfig(target, address.value, timeoutMs),
    describeError: (error) => describePgError(error, target),
  });
}

/**
 * NOTE: the settings of customerClient (each field explicit, never one from the service's own
 * environment), plus `replication: 'database'` and the pinned session options. A non-empty
 * `options` also keeps pg from falling back to PGOPTIONS.
 */
function replicationConfig(target: PostgresTarget, address: string, timeoutMs: number): pg.ClientConfig {
  const base = customerClient(target, address, { timeoutMs, applicationName: "groundwork-cdc" });
  const params = (base as unknown as { connectionParameters: pg.ClientConfig & { ssl: unknown } }).connectionParameters;
  return {
    host: address,
    port: target.port,
    database: target.database,
    user: target.user,
    password: () => target.password ?? "",
    ssl: params.ssl as pg.ClientConfig["ssl"],
    application_name: "groundwork-cdc",
    connectionTimeoutMillis: timeoutMs,
    options: SESSION_OPTIONS,
    replication: "database",
  } as pg.ClientConfig;
}

/** A replication-protocol client outside the library (slot creation with an exported snapshot). */
export async function connectReplication(endpoint: CdcEndpoint, timeoutMs: number): Promise<pg.Client> {
  const { default: pgModule } = await import("pg");
  const client = withoutCrash(new pgModule.Client(endpoint.replicationConfig(timeoutMs)));
  await client.connect();
  return client;
}

/** A dropped connection is reported through the pending query; without a listener 'error' would crash the process. */
function withoutCrash(client: pg.Client): pg.Client {
  client.on("error", () => undefined);
  return client;
}
