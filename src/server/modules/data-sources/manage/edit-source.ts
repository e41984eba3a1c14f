import { z } from "zod";
import { Prisma } from "@/server/db/generated/client";
import { inTransaction } from "@/server/db/transaction";
import type { Db } from "@/server/db/types";
import { AppError, isAppError } from "@/server/errors/app-error";
import { fromZod } from "@/server/errors/zod-issues";
import type { ActingPrincipal } from "../../access/acting-principal";
import { recordAuditEvent } from "../../audit/record-audit-event";
import type { ConnectorDeps } from "../connectors/connector-for-source";
import { parsePostgresUrl, type PostgresTarget } from "../connectors/targets/postgres-target";
import { defaultConnectorTargets } from "@/server/modules/outbound/target-policy";
import { sourceNameSchema } from "../create-csv-source";
import { syncIntervalSchema } from "../create-managed-source";
import { openCredentials, sealCredentials } from "../credentials/source-credentials";
import { requireSource } from "@/server/modules/access/require-source";
import { crmCredentialsSchema, crmObjectConfigSchema, describeIssues, postgresTableConfigSchema, storedPostgresCredentialsSchema } from "../source-config";
import { testConnection, type ConnectionSettings } from "../test-connection";
import { captureModeSchema, confirmCaptureMode } from "../capture/confirm-capture-mode";
import {
  checkEditedTarget,
  crmConfigEditSchema,
  crmConnectionEditSchema,
  judgedPostgresUrl,
  mergePostgresConnection,
  postgresConfigEditSchema,
  postgresConnectionEditSchema,
  refuseIdentityChange,
  requireSecretForNewDestination,
} from "./edit-connection";

/** Every field optional: what is left out stays as it is. */
const editSourceInputSchema = z.object({
  name: sourceNameSchema.optional(),
  syncIntervalSeconds: syncIntervalSchema.optional(),
  /** Kind-specific (postgresConfigEditSchema / crmConfigEditSchema), judged below. */
  config: z.record(z.string(), z.unknown()).optional(),
  /** Kind-specific (postgresConnectionEditSchema / crmConnectionEditSchema); secrets write-only. */
  connection: z.record(z.string(), z.unknown()).optional(),
  /** Managed sources: how passes learn what changed; must be one the connection test allows (D282). */
  captureMode: captureModeSchema.optional(),
});
export type EditSourceInput = z.input<typeof editSourceInputSchema>;

export interface EditSourceResult {
  id: string;
  /** The names of the fields that changed (secrets by name only). */
  changed: string[];
}

/**
 * Edits a source's name, schedule and, on a managed source, its settings and connection. A
 * changed target passes the target policy and a connection test before anything is stored (the
 * refusal says why); a change of what is mirrored is refused (D132). One audit event names what
 * changed, with before/after values for everything but secrets.
 */
export async function editDataSource(
  deps: ConnectorDeps & { db: Db },
  principal: ActingPrincipal,
  sourceId: string,
  input: EditSourceInput,
): Promise<EditSourceResult> {
  const parsed = editSourceInputSchema.safeParse(input);
  if (!parsed.success) throw fromZod(parsed.error, { subject: "edit", root: "input" });
  const edit = parsed.data;
  const source = await requireSource(deps.db, principal, sourceId);
  try {
    return await applyEdit(deps, principal, source, edit);
  } catch (error) {
    // A refused or failed edit leaves a trace too (D361): who tried to change what, and why it
    // was not saved. Field names only, never a value: a refused edit may carry a secret.
    if (isAppError(error) && error.code !== "not_found") await auditRefusedEdit(deps.db, principal, source, input, error);
    throw error;
  }
}

async function auditRefusedEdit(db: Db, principal: ActingPrincipal, source: StoredSource, input: EditSourceInput, error: AppError): Promise<void> {
  const attempted = [
    ...(["name", "syncIntervalSeconds", "captureMode"] as const).filter((key) => input[key] !== undefined),
    ...Object.keys(input.config ?? {}).map((key) => `config.${key}`),
    ...Object.keys(input.connection ?? {}).map((key) => `connection.${key}`),
  ];
  const outcome = error.details?.outcome === "connection_failed" ? "connection_failed" : "refused";
  await recordAuditEvent(db, {
    action: "data_source.edit_refused",
    actor: principal.actor,
    organizationId: source.organizationId,
    target: { type: "data_source", id: source.id },
    metadata: { name: source.name, kind: source.kind, outcome, reason: error.message, attempted },
  });
}

async function applyEdit(
  deps: ConnectorDeps & { db: Db },
  principal: ActingPrincipal,
  source: StoredSource,
  edit: z.output<typeof editSourceInputSchema>,
): Promise<EditSourceResult> {
  const sourceId = source.id;
  const data: Prisma.DataSourceUpdateInput = {};
  const changes: Record<string, unknown> = {};
  const changed: string[] = [];

  if (edit.name !== undefined && edit.name !== source.name) {
    data.name = edit.name;
    changes.name = { from: source.name, to: edit.name };
    changed.push("name");
  }
  if (edit.syncIntervalSeconds !== undefined && edit.syncIntervalSeconds !== source.syncIntervalSeconds) {
    if (source.kind === "csv") throw new AppError("bad_request", "A CSV source has no schedule: it changes only by upload.");
    data.syncIntervalSeconds = edit.syncIntervalSeconds;
    changes.syncIntervalSeconds = { from: source.syncIntervalSeconds, to: edit.syncIntervalSeconds };
    changed.push("syncIntervalSeconds");
  }
  if ((edit.config || edit.connection) && source.kind === "csv") {
    throw new AppError("bad_request", "A CSV source has no connection settings: upload a file to change its rows.");
  }
  if (source.kind === "csv" && edit.captureMode !== undefined)
    throw new AppError("bad_request", "A CSV source has no capture mode: it changes only by upload.");
  const modeChanged = edit.captureMode !== undefined && edit.captureMode !== source.captureMode;
  if (source.kind !== "csv" && (edit.config || edit.connection || modeChanged)) {
    const managed = await managedChanges(deps, source, edit.config ?? {}, edit.connection ?? {});
    Object.assign(data, managed.data);
    Object.assign(changes, managed.changes);
    changed.push(...managed.changed);
    if (modeChanged) {
      await confirmCaptureMode(deps, managed.settings, edit.captureMode!);
      data.captureMode = edit.captureMode;
      changes.captureMode = { from: source.captureMode, to: edit.captureMode };
      changed.push("captureMode");
    }
    // A new mode, target or selection starts from a full compare: the old horizon means nothing there (D283).
    if (changed.some((name) => name === "captureMode" || name.startsWith("connection.") || name.startsWith("config."))) data.captureState = Prisma.DbNull;
  }
  if (changed.length === 0) return { id: sourceId, changed };

  await inTransaction(deps.db, async (tx) => {
    const updated = await tx.dataSource.updateMany({ where: { id: sourceId, deletingAt: null }, data: data as Prisma.DataSourceUpdateManyMutationInput });
    if (updated.count === 0) throw new AppError("not_found", `No data source ${sourceId}.`);
    await recordAuditEvent(tx, {
      action: "data_source.edited",
      actor: principal.actor,
      organizationId: source.organizationId,
      target: { type: "data_source", id: sourceId },
      metadata: { name: edit.name ?? source.name, kind: source.kind, changed, changes } as Prisma.InputJsonObject,
    });
  });
  return { id: sourceId, changed };
}

type StoredSource = Awaited<ReturnType<typeof requireSource>>;

async function managedChanges(
  deps: ConnectorDeps,
  source: StoredSource,
  configEdit: Record<string, unknown>,
  connectionEdit: Record<string, unknown>,
): Promise<{ data: Prisma.DataSourceUpdateInput; changes: Record<string, unknown>; changed: string[]; settings: ConnectionSettings }> {
  const targets = deps.targets ?? defaultConnectorTargets();
  const stored = openCredentials(deps.secrets, source.id, source.credentialsEncrypted);
  if (!stored.ok) throw new AppError("bad_request", `The stored credentials cannot be read (${stored.reason}); give the full connection again.`);
  const changes: Record<string, unknown> = {};
  const changed: string[] = [];
  let config: Record<string, unknown>;
  let credentials: object | null = null;

  if (source.kind === "postgres_table") {
    const current = postgresTableConfigSchema.parse(source.config);
    const configPatch = parseOr(postgresConfigEditSchema, configEdit, "config");
    refuseIdentityChange("postgres_table", current, configPatch);
    config = { ...current, ...configPatch };
    const connection = parseOr(postgresConnectionEditSchema, connectionEdit, "connection");
    const url = storedPostgresCredentialsSchema.safeParse(stored.value);
    const target = url.success ? parsePostgresUrl(url.data.url) : null;
    if (!target?.ok) throw new AppError("bad_request", "The stored connection URL cannot be read; give the full connection again.");
    const merged = mergePostgresConnection(target.value, connection);
    requireSecretForNewDestination("postgres_table", merged.changed, connection.password, target.value.password !== null);
    if (merged.changed.length > 0) {
      const judged = judgedPostgresUrl(merged.target);
      if (!judged.ok) throw new AppError("bad_request", `Connection refused: ${judged.reason}`);
      await refusedTarget("postgres_table", { target: merged.target }, targets);
      credentials = { url: judged.value };
      for (const part of merged.changed) {
        changed.push(`connection.${part}`);
        changes[`connection.${part}`] = part === "password" ? "changed" : { from: shown(target.value, part), to: shown(merged.target, part) };
      }
    }
  } else {
    const current = crmObjectConfigSchema.parse(source.config);
    const configPatch = parseOr(crmConfigEditSchema, configEdit, "config");
    refuseIdentityChange("crm_object", current, configPatch);
    const connection = parseOr(crmConnectionEditSchema, connectionEdit, "connection");
    const instance = connection.instanceUrl === undefined ? current.instanceUrl : crmObjectConfigSchema.shape.instanceUrl.safeParse(connection.instanceUrl);
    if (typeof instance !== "string" && !instance.success) throw new AppError("bad_request", `Invalid edit: instanceUrl: ${describeIssues(instance.error)}`);
    const instanceUrl = typeof instance === "string" ? instance : instance.data;
    config = { ...current, ...configPatch, instanceUrl };
    const secret = crmCredentialsSchema.safeParse(stored.value);
    if (!secret.success) throw new AppError("bad_request", "The stored CRM client credentials cannot be read; give them again.");
    const next = {
      clientId: connection.clientId ?? secret.data.clientId,
      clientSecret: connection.clientSecret ? connection.clientSecret : secret.data.clientSecret,
    };
    const parts: string[] = [];
    if (instanceUrl !== current.instanceUrl) parts.push("instanceUrl");
    if (next.clientId !== secret.data.clientId) parts.push("clientId");
    if (next.clientSecret !== secret.data.clientSecret) parts.push("clientSecret");
    requireSecretForNewDestination("crm_object", parts, connection.clientSecret, true);
    if (parts.length > 0) {
      await refusedTarget("crm_object", { instanceUrl }, targets);
      credentials = next;
      for (const part of parts) {
        changed.push(`connection.${part}`);
        changes[`connection.${part}`] =
          part === "clientSecret"
            ? "changed"
            : part === "clientId"
              ? { from: secret.data.clientId, to: next.clientId }
              : { from: current.instanceUrl, to: instanceUrl };
      }
    }
  }

  const before = source.config as Record<string, unknown>;
  for (const [key, value] of Object.entries(config)) {
    if (key === "instanceUrl") continue;
    if (JSON.stringify(value) !== JSON.stringify(before[key] ?? null)) {
      changed.push(`config.${key}`);
      changes[`config.${key}`] = { from: before[key] ?? null, to: value };
    }
  }
  if (credentials !== null) {
    // NOTE: the same path a pass takes (connectorForSource on sealed credentials), so the
    // refusal reads like the sync_error the next pass would have stored.
    const check = await testConnection(deps, { kind: source.kind as "postgres_table", config: config as never, credentials: credentials as never });
    if (!check.ok)
      throw new AppError("bad_request", `Connection test failed, nothing was saved: ${check.reason}`, { details: { outcome: "connection_failed" } });
  }
  const data: Prisma.DataSourceUpdateInput = {};
  if (changed.some((name) => name.startsWith("config.") || name === "connection.instanceUrl")) data.config = config as Prisma.InputJsonObject;
  if (credentials !== null) data.credentialsEncrypted = sealCredentials(deps.secrets, source.id, credentials);
  return { data, changes, changed, settings: { kind: source.kind, config, credentials: credentials ?? stored.value } as ConnectionSettings };
}

function shown(target: PostgresTarget, part: string): unknown {
  return (target as unknown as Record<string, unknown>)[part] ?? null;
}

async function refusedTarget(
  kind: "postgres_table" | "crm_object",
  value: { target?: PostgresTarget; instanceUrl?: string },
  targets: NonNullable<ConnectorDeps["targets"]>,
): Promise<void> {
  const refused = await checkEditedTarget(kind, value, targets);
  if (refused) throw new AppError("bad_request", `Connection refused: ${refused}`);
}

function parseOr<T extends z.ZodType>(schema: T, value: unknown, where: string): z.output<T> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new AppError("bad_request", `Invalid edit: ${where}.${describeIssues(parsed.error)}`);
  return parsed.data;
}
