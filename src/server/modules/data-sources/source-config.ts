import { z } from "zod";
import { parseTableName } from "./connectors/postgres-table/identifiers";
import { parsePostgresUrl, postgresUrl, SSL_MODES } from "./connectors/targets/postgres-target";

/**
 * The non-secret settings (data_sources.config) and the secrets (credentials_encrypted, sealed)
 * of each source kind. Parsed on the way in and again on every read, so a hand-edited row
 * fails as a readable sync_error rather than a crash.
 */
const columnName = z.string().trim().min(1, "column names must not be empty").max(63);

export const postgresTableConfigSchema = z.object({
  table: z
    .string()
    .trim()
    .refine((value) => parseTableName(value) !== null, 'must be "schema.table" (quote a part with double quotes if it contains a dot)'),
  keyColumn: columnName,
  orderColumn: columnName.nullable().default(null),
  /** null mirrors every column of the table, including ones added later. */
  columns: z.array(columnName).min(1).nullable().default(null),
});
export type PostgresTableConfig = z.infer<typeof postgresTableConfigSchema>;

const judgedUrl = z.string().superRefine((value, context) => {
  const parsed = parsePostgresUrl(value);
  if (!parsed.ok) context.addIssue({ code: "custom", message: parsed.reason });
});

/**
 * The dashboard's connection fields (D492): host, port, database, user, password, sslmode, each
 * its own field. They become the same URL the connector stores (sealed, as ever) and are judged by
 * the same rules, so a field cannot smuggle in what a URL may not carry.
 */
const postgresConnectionFieldsSchema = z.object({
  host: z.string().trim().min(1, "give the database server's host name or address").max(253),
  port: z.number().int().min(1).max(65_535).default(5432),
  database: z.string().trim().min(1, "give the database name").max(63),
  user: z.string().trim().min(1, "give the user name").max(63),
  password: z.string().max(1024).nullish(),
  sslmode: z.enum(SSL_MODES).nullish(),
});
export type PostgresConnectionFields = z.input<typeof postgresConnectionFieldsSchema>;

/** The URL of connection fields; an empty password is none. */
function urlOfConnectionFields(fields: z.infer<typeof postgresConnectionFieldsSchema>): string {
  return postgresUrl({ ...fields, password: fields.password ? fields.password : null, sslmode: fields.sslmode ?? null });
}

/**
 * A tenant's URL is parsed into an allow-listed target (host, port, database, user, password,
 * sslmode): anything else is refused with a message naming it (see targets/postgres-target.ts).
 * The connection fields are taken too, and stored as that URL.
 */
const urlCredentials = z.object({ url: judgedUrl }).strict();
const fieldCredentials = postgresConnectionFieldsSchema
  .strict()
  .transform((fields) => ({ url: urlOfConnectionFields(fields) }))
  .pipe(urlCredentials);
/** NOTE: not a z.union: a union reports "Invalid input", where each form's own reason is wanted. */
export const postgresCredentialsSchema = z
  .custom<{ url: string } | PostgresConnectionFields>((value) => typeof value === "object" && value !== null, "must be an object")
  .transform((value, context) => {
    const parsed = ("url" in value ? urlCredentials : fieldCredentials).safeParse(value);
    if (parsed.success) return parsed.data;
    for (const issue of parsed.error.issues) context.addIssue({ code: "custom", message: issue.message, path: issue.path });
    return z.NEVER;
  });
export type PostgresCredentials = z.infer<typeof postgresCredentialsSchema>;
/** A stored secret, judged again by the connector at every connect. */
export const storedPostgresCredentialsSchema = z.object({ url: z.string() });

/** Salesforce API names: letters, digits and underscores (custom ones end in __c). */
const soqlName = z
  .string()
  .trim()
  .regex(/^[A-Za-z][A-Za-z0-9_]{0,79}$/, "must be an API name (letters, digits, underscores)");

export const crmObjectConfigSchema = z.object({
  instanceUrl: z
    .url()
    .refine((value) => /^https?:\/\//.test(value), "must be an http(s) URL")
    .transform((value) => value.replace(/\/+$/, "")),
  object: soqlName,
  /** null mirrors every field the object describes. Id is always included. */
  fields: z.array(soqlName).min(1).nullable().default(null),
  apiVersion: z
    .string()
    .regex(/^v\d+\.\d+$/, 'must look like "v60.0"')
    .default("v60.0"),
});
export type CrmObjectConfig = z.infer<typeof crmObjectConfigSchema>;

export const crmCredentialsSchema = z.object({
  clientId: z.string().trim().min(1, "must not be empty"),
  clientSecret: z.string().min(1, "must not be empty"),
});
export type CrmCredentials = z.infer<typeof crmCredentialsSchema>;

export const csvConfigSchema = z.object({
  keyColumn: z
    .string()
    .trim()
    .nullish()
    .transform((value) => (value ? value : null)),
});

/**
 * Every issue of a zod error as one readable line, for a failure kept as a value (a source's
 * sync_error, a connection test's reason): `table: must be "schema.table"; keyColumn: …`. A
 * refusal thrown to a caller goes through fromZod instead (src/server/errors/zod-issues.ts).
 */
export function describeIssues(error: z.ZodError): string {
  const lines = error.issues.map((issue) => {
    const where = issue.path.map(String).join(".");
    return where ? `${where}: ${issue.message}` : issue.message;
  });
  return lines.join("; ") || "invalid";
}
