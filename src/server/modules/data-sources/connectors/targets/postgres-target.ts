import { failure, success, type Result } from "@/server/modules/outbound/result";
import { isLoopback, restrictedRange } from "@/server/modules/outbound/address-ranges";
import { checkedAddresses, resolveHost, type TargetPolicy } from "@/server/modules/outbound/target-policy";

export const SSL_MODES = ["disable", "prefer", "require", "verify-ca", "verify-full", "no-verify"] as const;
type SslMode = (typeof SSL_MODES)[number];

/**
 * Everything a connector takes from a tenant's Postgres URL. The pg client config is built
 * from these fields alone (never from the URL string), so nothing else in a URL can reach the
 * driver: no file-reading parameters (sslcert, sslrootcert, passfile...), no service files,
 * no second host, no option that changes how the session runs.
 */
export interface PostgresTarget {
  /** A host name or an IP address (IPv6 without brackets). */
  host: string;
  port: number;
  database: string;
  user: string;
  /** null: the URL carries none, and none is sent (never one from the service's environment). */
  password: string | null;
  sslmode: SslMode | null;
}

const HOST_NAME = /^(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*\.?$/;
/** The URL's own parts name host, port, user, password and database; its query may only add these. */
const QUERY_PARAMETERS = new Set(["sslmode"]);

function decode(part: string, what: string): Result<string> {
  try {
    return success(decodeURIComponent(part));
  } catch {
    return failure(`the ${what} of the connection URL has malformed percent-escaping`);
  }
}

/** Parses and judges a tenant's URL; a refusal names the part it refuses. */
export function parsePostgresUrl(text: string): Result<PostgresTarget> {
  const authority = /^postgres(?:ql)?:\/\/([^/?#]*)/i.exec(text);
  if (!authority) return failure("must be a postgres:// or postgresql:// URL");
  const NO_HOST = "the connection URL names no host; give the database server's host name or address";
  if (/(^|@)(:\d*)?$/.test(authority[1]!)) return failure(NO_HOST);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return failure("the connection URL is not valid (check its host, port and percent-escaping)");
  }
  const rawHost = decode(url.hostname, "host");
  if (!rawHost.ok) return rawHost;
  const host = rawHost.value.replace(/^\[(.*)\]$/, "$1");
  if (host === "") return failure(NO_HOST);
  if (host.startsWith("/") || host.startsWith("@")) return failure(`the host ${host} is a Unix socket; only TCP hosts are allowed`);
  if (!HOST_NAME.test(host) && !/^[0-9a-fA-F:.]+$/.test(host)) return failure(`the host ${JSON.stringify(host)} is not a host name or IP address`);
  const port = url.port === "" ? 5432 : Number(url.port);
  if (!Number.isInteger(port) || port < 1 || port > 65_535) return failure(`the port ${url.port} is not a valid port`);

  const user = decode(url.username, "user");
  if (!user.ok) return user;
  if (user.value === "") return failure("the connection URL names no user; give one (postgres://user:password@host/database)");
  const password = decode(url.password, "password");
  if (!password.ok) return password;
  const path = decode(url.pathname.replace(/^\//, ""), "database name");
  if (!path.ok) return path;
  const database = path.value === "" ? user.value : path.value;
  if (/[\u0000/]/.test(database)) return failure(`the database name ${JSON.stringify(database)} is not valid`);

  let sslmode: SslMode | null = null;
  // URLSearchParams percent-decodes names and values: `?%73slcert=` is `sslcert` here.
  for (const [name, value] of url.searchParams) {
    if (!QUERY_PARAMETERS.has(name)) return failure(`parameter ${name} is not allowed (only sslmode may be given; TLS goes through sslmode)`);
    if (sslmode !== null) return failure(`parameter ${name} is given more than once`);
    if (!(SSL_MODES as readonly string[]).includes(value)) return failure(`parameter sslmode must be one of ${SSL_MODES.join(", ")}`);
    sslmode = value as SslMode;
  }
  return success({ host, port, database, user: user.value, password: password.value === "" ? null : password.value, sslmode });
}

/** A target back to the URL the connector stores (every part percent-escaped). */
export function postgresUrl(target: PostgresTarget): string {
  const host = target.host.includes(":") ? `[${target.host}]` : target.host;
  const auth = encodeURIComponent(target.user) + (target.password === null ? "" : `:${encodeURIComponent(target.password)}`);
  const query = target.sslmode === null ? "" : `?sslmode=${target.sslmode}`;
  return `postgres://${auth}@${host}:${target.port}/${encodeURIComponent(target.database)}${query}`;
}

/** `host:port/database`, for messages: never the user's password. */
export function describePostgresTarget(target: PostgresTarget): string {
  const host = target.host.includes(":") ? `[${target.host}]` : target.host;
  return `${host}:${target.port}/${target.database}`;
}

/**
 * The address to connect to: every address of the host checked against the policy, and the
 * target refused when it is the service's own database. Run at creation and again at every
 * connect; the caller connects to the returned address, so a DNS answer that changes between
 * the check and the connection (rebinding) cannot swap the server.
 */
export async function checkPostgresTarget(target: PostgresTarget, policy: TargetPolicy, serviceUrl: string | undefined): Promise<Result<string>> {
  const addresses = await checkedAddresses(target.host, policy);
  if (!addresses.ok) return addresses;
  if (serviceUrl !== undefined && (await isServiceDatabase(target, addresses.value, serviceUrl, policy))) {
    return failure(`${describePostgresTarget(target)} is this service's own database; a data source must read another database`);
  }
  return success(addresses.value[0]!);
}

async function isServiceDatabase(target: PostgresTarget, addresses: string[], serviceUrl: string, policy: TargetPolicy): Promise<boolean> {
  let service: URL;
  try {
    service = new URL(serviceUrl);
  } catch {
    return false;
  }
  const database = safeDecode(service.pathname.replace(/^\//, "")) || safeDecode(service.username);
  const port = service.port === "" ? 5432 : Number(service.port);
  if (database !== target.database || port !== target.port) return false;
  const serviceHost = safeDecode(service.hostname).replace(/^\[(.*)\]$/, "$1");
  // No host (a socket) or a local one: the service's server is on this machine.
  const local = (address: string) => isLoopback(address) || restrictedRange(address) === "unspecified";
  if (serviceHost === "" || serviceHost.startsWith("/")) return addresses.some(local);
  const resolved = await resolveHost(serviceHost, policy);
  if (!resolved.ok) return false;
  if (resolved.value.some(local) && addresses.some(local)) return true;
  return addresses.some((address) => resolved.value.includes(address));
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
