import type { Db } from "@/server/db/types";
import type { ActingPrincipal } from "../../access/acting-principal";
import { parsePostgresUrl } from "../connectors/targets/postgres-target";
import { openCredentials } from "../credentials/source-credentials";
import type { SecretBox } from "../credentials/secret-box";
import { requireSource } from "@/server/modules/access/require-source";
import { crmCredentialsSchema, crmObjectConfigSchema, storedPostgresCredentialsSchema } from "../source-config";
import { postgresConnectionView, type PostgresConnectionView } from "./edit-connection";

export type SourceConnectionView =
  | ({ kind: "postgres_table" } & PostgresConnectionView)
  | { kind: "crm_object"; instanceUrl: string; clientId: string }
  | { kind: "csv" }
  | { kind: "unreadable"; reason: string };

/** What the edit form pre-fills: the stored target without its password or client secret. */
export async function sourceConnectionView(deps: { db: Db; secrets: SecretBox }, principal: ActingPrincipal, sourceId: string): Promise<SourceConnectionView> {
  const source = await requireSource(deps.db, principal, sourceId);
  if (source.kind === "csv") return { kind: "csv" };
  const stored = openCredentials(deps.secrets, source.id, source.credentialsEncrypted);
  if (!stored.ok) return { kind: "unreadable", reason: stored.reason };
  if (source.kind === "postgres_table") {
    const url = storedPostgresCredentialsSchema.safeParse(stored.value);
    const target = url.success ? parsePostgresUrl(url.data.url) : null;
    if (!target?.ok) return { kind: "unreadable", reason: "the stored connection URL cannot be read" };
    return { kind: "postgres_table", ...postgresConnectionView(target.value) };
  }
  const config = crmObjectConfigSchema.safeParse(source.config);
  const secret = crmCredentialsSchema.safeParse(stored.value);
  if (!config.success || !secret.success) return { kind: "unreadable", reason: "the stored CRM settings cannot be read" };
  return { kind: "crm_object", instanceUrl: config.data.instanceUrl, clientId: secret.data.clientId };
}
