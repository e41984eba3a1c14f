import { randomUUID } from "node:crypto";
import { z } from "zod";
import type { Db } from "@/server/db/types";
import { AppError } from "@/server/errors/app-error";
import { sourceNameSchema } from "./create-csv-source";
import type { SecretBox } from "./credentials/secret-box";
import { sealCredentials } from "./credentials/source-credentials";
import {
  crmCredentialsSchema,
  crmObjectConfigSchema,
  describeIssue,
  postgresCredentialsSchema,
  postgresTableConfigSchema,
} from "./source-config";
import { DEFAULT_SYNC_INTERVAL_SECONDS } from "./source-status";

/** The scheduler ticks once a minute: a shorter interval could not be honoured. */
export const MIN_SYNC_INTERVAL_SECONDS = 60;

const common = {
  organizationId: z.string().min(1),
  name: sourceNameSchema,
  /** null: no schedule, synced only on request. Left out: the default schedule. */
  syncIntervalSeconds: z
    .number()
    .int()
    .min(MIN_SYNC_INTERVAL_SECONDS, `must be at least ${MIN_SYNC_INTERVAL_SECONDS} seconds`)
    .nullable()
    .default(DEFAULT_SYNC_INTERVAL_SECONDS),
};

export const managedSourceInputSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("postgres_table"), ...common, config: postgresTableConfigSchema, credentials: postgresCredentialsSchema }),
  z.object({ kind: z.literal("crm_object"), ...common, config: crmObjectConfigSchema, credentials: crmCredentialsSchema }),
]);
export type ManagedSourceInput = z.input<typeof managedSourceInputSchema>;

/**
 * A source mirrored from a customer's table or CRM object. Its credentials are sealed before
 * they reach the database and are never returned; its rows arrive with the first sync pass.
 */
export async function createManagedSource(db: Db, secrets: SecretBox, input: ManagedSourceInput): Promise<{ id: string }> {
  const parsed = managedSourceInputSchema.safeParse(input);
  if (!parsed.success) throw new AppError("bad_request", `Invalid data source: ${describeIssue(parsed.error)}`);
  const source = parsed.data;
  const organization = await db.organization.findUnique({ where: { id: source.organizationId }, select: { id: true } });
  if (!organization) throw new AppError("not_found", `No organization ${source.organizationId}.`);
  // The id is chosen here because the ciphertext is bound to it.
  const id = randomUUID();
  return db.dataSource.create({
    data: {
      id,
      organizationId: source.organizationId,
      name: source.name,
      kind: source.kind,
      config: source.config,
      credentialsEncrypted: sealCredentials(secrets, id, source.credentials),
      columns: [],
      syncIntervalSeconds: source.syncIntervalSeconds,
    },
    select: { id: true },
  });
}
