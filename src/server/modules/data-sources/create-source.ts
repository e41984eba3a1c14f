import { z } from "zod";
import type { Db } from "@/server/db/types";
import type { ActingPrincipal } from "../access/acting-principal";
import type { ConnectorTargets } from "./connectors/connector";
import { createCsvSource, sourceNameSchema } from "./create-csv-source";
import { createManagedSource, managedSourceInputSchema } from "./create-managed-source";
import type { SecretBox } from "./credentials/secret-box";
import { nextDueAt } from "./source-status";

/**
 * The create form of every kind, for one organization (given apart, never taken from the form).
 * Managed sources get DEFAULT_SYNC_INTERVAL_SECONDS unless an interval (or null: on request
 * only) is given.
 */
export const createSourceInputSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("csv"), name: sourceNameSchema, keyColumn: z.string().trim().max(63).nullish() }),
  managedSourceInputSchema.options[0].omit({ organizationId: true }),
  managedSourceInputSchema.options[1].omit({ organizationId: true }),
]);
export type CreateSourceInput = z.input<typeof createSourceInputSchema>;

export async function createDataSource(
  db: Db,
  secrets: SecretBox,
  principal: ActingPrincipal,
  organizationId: string,
  input: CreateSourceInput,
  targets?: ConnectorTargets,
): Promise<{ id: string; syncIntervalSeconds: number | null; nextDueAt: Date | null }> {
  const { id } =
    input.kind === "csv"
      ? await createCsvSource(db, principal, { organizationId, name: input.name, keyColumn: input.keyColumn })
      : await createManagedSource(db, secrets, principal, { ...input, organizationId }, targets);
  const created = await db.dataSource.findUniqueOrThrow({ where: { id } });
  return { id, syncIntervalSeconds: created.syncIntervalSeconds, nextDueAt: nextDueAt(created) };
}
