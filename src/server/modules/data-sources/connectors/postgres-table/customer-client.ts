import { isIP } from "node:net";
import pg from "pg";
import type { PostgresTarget } from "../targets/postgres-target";

/** pg's TLS settings for an sslmode, as pg-connection-string maps them (verification on unless no-verify). */
function tlsOptions(target: PostgresTarget): pg.ClientConfig["ssl"] {
  switch (target.sslmode) {
    case null:
    case "disable":
      return false;
    case "no-verify":
      return { rejectUnauthorized: false };
    default:
      // We connect to a checked address, not the name: the certificate is still checked
      // against the name the tenant gave.
      return { rejectUnauthorized: true, ...(isIP(target.host) ? {} : { servername: target.host }) };
  }
}

/**
 * A client for a tenant's database, built field by field from the checked target.
 *
 * NOTE: pg fills every setting it is not given (and every falsy one) from the process's own
 * environment: PGHOST, PGUSER, PGPASSWORD, ~/.pgpass, PGSSLMODE, PGOPTIONS, PGREPLICATION... A
 * tenant's connection must never borrow the service's credentials or settings, so each field
 * is set explicitly, the password is a function (pg then never consults PGPASSWORD or
 * pgpass; none in the URL means an empty one), and the fields pg only reads from the
 * environment are reset after construction.
 */
export function customerClient(target: PostgresTarget, address: string, options: { timeoutMs: number; applicationName: string }): pg.Client {
  const config = {
    host: address,
    port: target.port,
    database: target.database,
    user: target.user,
    password: () => target.password ?? "",
    ssl: tlsOptions(target),
    sslnegotiation: "postgres",
    client_encoding: "UTF8",
    application_name: options.applicationName,
    connectionTimeoutMillis: options.timeoutMs,
    query_timeout: options.timeoutMs,
  } satisfies pg.ClientConfig & { sslnegotiation: string };
  const client = new pg.Client(config);
  const parameters = (client as unknown as { connectionParameters: Record<string, unknown> }).connectionParameters;
  Object.assign(parameters, { options: undefined, replication: undefined });
  return client;
}
