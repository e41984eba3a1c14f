import { z } from "zod";
import { AppError } from "@/server/errors/app-error";
import { failure, success, type Result } from "@/server/modules/outbound/result";
import { checkCrmUrl } from "../connectors/targets/crm-target";
import { checkPostgresTarget, parsePostgresUrl, postgresUrl, SSL_MODES, type PostgresTarget } from "../connectors/targets/postgres-target";

import type { ConnectorTargets } from "../connectors/connector";
import { postgresTableConfigSchema, type CrmObjectConfig, type PostgresTableConfig } from "../source-config";

/**
 * The connection part of an edit: what may change on each kind of managed source. Secrets are
 * write-only: a blank (or absent) password or client secret keeps the stored one.
 */
export const postgresConnectionEditSchema = z.object({
  host: z.string().trim().min(1).max(253).optional(),
  port: z.number().int().min(1).max(65_535).optional(),
  database: z.string().trim().min(1).max(63).optional(),
  user: z.string().trim().min(1).max(63).optional(),
  password: z.string().max(1024).optional(),
  sslmode: z.enum(SSL_MODES).nullable().optional(),
});
export const crmConnectionEditSchema = z.object({
  instanceUrl: z.string().trim().min(1).optional(),
  clientId: z.string().trim().min(1).optional(),
  clientSecret: z.string().max(4096).optional(),
});
export type PostgresConnectionEdit = z.infer<typeof postgresConnectionEditSchema>;

/** Settings of what is mirrored and how it is shown; identity fields are refused when changed. */
const columnName = z.string().trim().min(1, "column names must not be empty").max(63);
const apiName = z
  .string()
  .trim()
  .regex(/^[A-Za-z][A-Za-z0-9_]{0,79}$/, "must be an API name (letters, digits, underscores)");
/** NOTE: no defaults here (unlike the create schemas): a field left out must keep its stored value. */
export const postgresConfigEditSchema = z.object({
  table: postgresTableConfigSchema.shape.table.optional(),
  keyColumn: columnName.optional(),
  orderColumn: columnName.nullable().optional(),
  columns: z.array(columnName).min(1).nullable().optional(),
});
export const crmConfigEditSchema = z.object({
  object: apiName.optional(),
  fields: z.array(apiName).min(1).nullable().optional(),
  apiVersion: z
    .string()
    .regex(/^v\d+\.\d+$/, 'must look like "v60.0"')
    .optional(),
});

/** What the edit form shows of a stored Postgres target: everything but the password. */
export interface PostgresConnectionView {
  host: string;
  port: number;
  database: string;
  user: string;
  sslmode: string | null;
  hasPassword: boolean;
}

export function postgresConnectionView(target: PostgresTarget): PostgresConnectionView {
  return { host: target.host, port: target.port, database: target.database, user: target.user, sslmode: target.sslmode, hasPassword: target.password !== null };
}

/** The stored target with the edit laid over it; `changed` names the parts that differ. */
export function mergePostgresConnection(stored: PostgresTarget, edit: PostgresConnectionEdit): { target: PostgresTarget; changed: string[] } {
  const target: PostgresTarget = {
    host: edit.host ?? stored.host,
    port: edit.port ?? stored.port,
    database: edit.database ?? stored.database,
    user: edit.user ?? stored.user,
    password: edit.password ? edit.password : stored.password,
    sslmode: edit.sslmode === undefined ? stored.sslmode : edit.sslmode,
  };
  const changed = (["host", "port", "database", "user", "password", "sslmode"] as const).filter((key) => target[key] !== stored[key]);
  return { target, changed };
}

/**
 * The parts of a connection that say where its secret goes (D360): a change of any of them
 * needs the secret given again in the same edit, so a stored password or client secret is only
 * ever sent to the destination it was stored for.
 */
const POSTGRES_DESTINATION_PARTS = ["host", "port", "database", "user"] as const;
const CRM_DESTINATION_PARTS = ["instanceUrl", "clientId"] as const;

/**
 * Refuses (400, before any lookup or connection) an edit that moves the destination but leaves
 * the stored secret to be sent there. `storedSecret` false: there is no secret to move.
 */
export function requireSecretForNewDestination(
  kind: "postgres_table" | "crm_object",
  changedParts: readonly string[],
  givenSecret: string | undefined,
  storedSecret: boolean,
): void {
  const destination: readonly string[] = kind === "postgres_table" ? POSTGRES_DESTINATION_PARTS : CRM_DESTINATION_PARTS;
  const moved = changedParts.filter((part) => destination.includes(part));
  if (moved.length === 0 || !storedSecret || (givenSecret ?? "") !== "") return;
  const secret = kind === "postgres_table" ? "password" : "clientSecret";
  const label = kind === "postgres_table" ? "password" : "client secret";
  throw new AppError(
    "bad_request",
    `Give the ${label} again to change the ${moved.join(", ")}: the stored ${label} is only ever sent to the destination it was saved for. Nothing was saved and nothing was contacted.`,
    { details: { parameter: `connection.${secret}`, reason: "secret_required_for_new_destination", changed: moved } },
  );
}

/** Parses the merged target again through the tenant-URL rules, so an edit is judged like a create. */
export function judgedPostgresUrl(target: PostgresTarget): Result<string> {
  const url = postgresUrl(target);
  const parsed = parsePostgresUrl(url);
  return parsed.ok ? success(url) : failure(parsed.reason);
}

/** The target policy (and, for Postgres, "not this service's own database"), as at creation. */
export async function checkEditedTarget(
  kind: "postgres_table" | "crm_object",
  value: { target?: PostgresTarget; instanceUrl?: string },
  targets: ConnectorTargets,
): Promise<string | null> {
  if (kind === "crm_object") {
    const checked = await checkCrmUrl(value.instanceUrl ?? "", targets.policy);
    return checked.ok ? null : `instance URL: ${checked.reason}`;
  }
  const checked = await checkPostgresTarget(value.target!, targets.policy, targets.serviceDatabaseUrl());
  return checked.ok ? null : checked.reason;
}

/**
 * Refuses a change of what the source mirrors (D132): the rows, their external ids and every
 * device copy belong to that table (or object) and key; another one is another mirror.
 */
export function refuseIdentityChange(
  kind: "postgres_table" | "crm_object",
  stored: PostgresTableConfig | CrmObjectConfig,
  edit: Partial<PostgresTableConfig> & Partial<CrmObjectConfig>,
): void {
  const fields = kind === "postgres_table" ? (["table", "keyColumn"] as const) : (["object"] as const);
  for (const field of fields) {
    const next = edit[field as keyof typeof edit];
    const current = (stored as Record<string, unknown>)[field];
    if (next !== undefined && next !== current) {
      const what = field === "keyColumn" ? "key column" : field;
      throw new AppError(
        "bad_request",
        `The ${what} cannot change: it defines what this source mirrors (its rows and every device copy). Create a new source for ${String(next)}, then delete this one.`,
        { details: { field } },
      );
    }
  }
}
