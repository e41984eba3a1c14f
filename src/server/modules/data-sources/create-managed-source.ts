import { randomUUID } from "node:crypto";
import { z } from "zod";
import { env } from "@/env";
import { inTransaction } from "@/server/db/transaction";
import type { Db } from "@/server/db/types";
import { AppError } from "@/server/errors/app-error";
import { fromZod } from "@/server/errors/zod-issues";
import { requireReach, type ActingPrincipal } from "../access/acting-principal";
import { recordAuditEvent } from "../audit/record-audit-event";
import type { ConnectorTargets } from "./connectors/connector";
import { checkCrmUrl } from "./connectors/targets/crm-target";
import { checkPostgresTarget, parsePostgresUrl } from "./connectors/targets/postgres-target";
import { defaultConnectorTargets } from "@/server/modules/outbound/target-policy";
import { sourceNameSchema } from "./create-csv-source";
import type { SecretBox } from "./credentials/secret-box";
import { sealCredentials } from "./credentials/source-credentials";
import { crmCredentialsSchema, crmObjectConfigSchema, postgresCredentialsSchema, postgresTableConfigSchema } from "./source-config";
import { DEFAULT_SYNC_INTERVAL_SECONDS } from "./source-status";
import { captureModeSchema, confirmCaptureMode } from "./capture/confirm-capture-mode";

/** The shortest interval allowed here: the scheduler's tick (GROUNDWORK_SYNC_TICK_SECONDS, default 60). */
function minSyncIntervalSeconds(): number {
  return env().GROUNDWORK_SYNC_TICK_SECONDS;
}

/** An interval in seconds, or null for "no schedule". */
export const syncIntervalSchema = z
  .number()
  .int()
  .superRefine((value, context) => {
    const min = minSyncIntervalSeconds();
    if (value < min) context.addIssue({ code: "custom", message: `must be at least ${min} seconds` });
  })
  .nullable();

const common = {
  organizationId: z.string().min(1),
  name: sourceNameSchema,
  /** null: no schedule, synced only on request. Left out: the default schedule. */
  syncIntervalSeconds: syncIntervalSchema.default(DEFAULT_SYNC_INTERVAL_SECONDS),
  /** Left out or null: the best mode the target supports, chosen by the first pass (D282). */
  captureMode: captureModeSchema.nullable().default(null),
};

export const managedSourceInputSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("postgres_table"), ...common, config: postgresTableConfigSchema, credentials: postgresCredentialsSchema }),
  z.object({ kind: z.literal("crm_object"), ...common, config: crmObjectConfigSchema, credentials: crmCredentialsSchema }),
]);
export type ManagedSourceInput = z.input<typeof managedSourceInputSchema>;

/**
 * A source mirrored from a customer's table or CRM object. Its target is tenant input: the
 * URL is reduced to an allow-listed target and every address it resolves to is checked before
 * anything is stored (and again at every connect). Its credentials are sealed before they
 * reach the database and are never returned; its rows arrive with the first sync pass.
 */
export async function createManagedSource(
  db: Db,
  secrets: SecretBox,
  principal: ActingPrincipal,
  input: ManagedSourceInput,
  targets: ConnectorTargets = defaultConnectorTargets(),
): Promise<{ id: string }> {
  const parsed = managedSourceInputSchema.safeParse(input);
  if (!parsed.success) throw fromZod(parsed.error, { subject: "data source", root: "input" });
  const source = parsed.data;
  requireReach(principal, source.organizationId);
  const refused = await checkTarget(source, targets);
  if (refused) throw new AppError("bad_request", `Invalid data source. ${refused}`);
  if (source.captureMode !== null) {
    await confirmCaptureMode({ secrets, targets }, { kind: source.kind, config: source.config, credentials: source.credentials } as never, source.captureMode);
  }
  return inTransaction(db, async (tx) => {
    const organization = await tx.organization.findUnique({ where: { id: source.organizationId }, select: { id: true } });
    if (!organization) throw new AppError("not_found", `No organization ${source.organizationId}.`);
    // The id is chosen here because the ciphertext is bound to it.
    const id = randomUUID();
    const created = await tx.dataSource.create({
      data: {
        id,
        organizationId: source.organizationId,
        name: source.name,
        kind: source.kind,
        config: source.config,
        credentialsEncrypted: sealCredentials(secrets, id, source.credentials),
        columns: [],
        syncIntervalSeconds: source.syncIntervalSeconds,
        captureMode: source.captureMode,
      },
      select: { id: true },
    });
    await recordAuditEvent(tx, {
      action: "data_source.created",
      actor: principal.actor,
      organizationId: source.organizationId,
      target: { type: "data_source", id },
      metadata: { kind: source.kind, name: source.name, captureMode: source.captureMode },
    });
    return created;
  });
}

/** Why the source's target is refused (naming the part), or null. */
async function checkTarget(source: z.output<typeof managedSourceInputSchema>, targets: ConnectorTargets): Promise<string | null> {
  if (source.kind === "crm_object") {
    const checked = await checkCrmUrl(source.config.instanceUrl, targets.policy);
    return checked.ok ? null : `config.instanceUrl: ${checked.reason}`;
  }
  const target = parsePostgresUrl(source.credentials.url);
  if (!target.ok) return `credentials.url: ${target.reason}`;
  const checked = await checkPostgresTarget(target.value, targets.policy, targets.serviceDatabaseUrl());
  return checked.ok ? null : `credentials.url: ${checked.reason}`;
}
