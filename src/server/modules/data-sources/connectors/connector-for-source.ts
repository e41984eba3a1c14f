import type { DataSource } from "@/server/db/generated/client";
import { openCredentials } from "../credentials/source-credentials";
import type { SecretBox } from "../credentials/secret-box";
import { failure, success, type Result } from "@/server/modules/outbound/result";
import { crmCredentialsSchema, crmObjectConfigSchema, describeIssues, storedPostgresCredentialsSchema, postgresTableConfigSchema } from "../source-config";
import type { Connector, ConnectorTargets } from "./connector";
import { crmObjectConnector } from "./crm-object/crm-object-connector";
import type { FetchLike } from "./crm-object/crm-http";
import { postgresTableConnector } from "./postgres-table/postgres-table-connector";
import { defaultConnectorTargets } from "@/server/modules/outbound/target-policy";

export interface ConnectorDeps {
  secrets: SecretBox;
  /** The CRM connector's HTTP client; tests and proxies may replace it. */
  fetch?: FetchLike;
  /** Default: the operator's policy (GROUNDWORK_ALLOW_PRIVATE_TARGETS) and this process's database. */
  targets?: ConnectorTargets;
}

type ManagedSource = Pick<DataSource, "id" | "kind" | "config" | "credentialsEncrypted">;

/** The targets a connection is judged by: the deps' own, else the operator's policy. */
export function connectorTargets(deps: ConnectorDeps): ConnectorTargets {
  return deps.targets ?? defaultConnectorTargets();
}

/** The connector of a managed source, or why it cannot be built (bad config, unreadable secrets). */
export function connectorForSource(source: ManagedSource, deps: ConnectorDeps): Result<Connector> {
  if (source.kind === "csv") return failure("CSV sources are uploaded by hand; they have no connector");
  const targets = connectorTargets(deps);
  const credentials = openCredentials(deps.secrets, source.id, source.credentialsEncrypted);
  if (!credentials.ok) return credentials;
  if (source.kind === "postgres_table") {
    const config = postgresTableConfigSchema.safeParse(source.config);
    if (!config.success) return failure(`the source configuration is invalid: ${describeIssues(config.error)}`);
    // Only its shape here: the connector judges the URL itself and says what it refuses.
    const secret = storedPostgresCredentialsSchema.safeParse(credentials.value);
    if (!secret.success) return failure("the stored connection URL is invalid");
    return success(postgresTableConnector(config.data, secret.data, targets));
  }
  const config = crmObjectConfigSchema.safeParse(source.config);
  if (!config.success) return failure(`the source configuration is invalid: ${describeIssues(config.error)}`);
  const secret = crmCredentialsSchema.safeParse(credentials.value);
  if (!secret.success) return failure("the stored CRM client credentials are invalid");
  return success(crmObjectConnector(config.data, secret.data, targets.policy, deps.fetch));
}
