import { randomBytes } from "node:crypto";
import type { PrismaClient } from "@/server/db/types";
import { SYSTEM } from "@/server/modules/access/acting-principal";
import { createManagedSource } from "@/server/modules/data-sources/create-managed-source";
import { getDataSourceVersions } from "@/server/modules/data-sources/get-data-source";
import type { FakeCrm } from "@/server/modules/data-sources/testing/fake-crm-server";
import { CrmWriter } from "./crm-writer";
import type { Rng } from "./prng";
import type { SimulationDeps } from "./run-scenario";
import type { Timeline } from "./timeline";

// The run's helpers around its sources (moved out of run-scenario.ts to keep it short).

export async function crmSource(deps: SimulationDeps, crm: FakeCrm, organizationId: string, rng: Rng, timeline: Timeline, seed: number) {
  const writer = new CrmWriter({ db: deps.db, crm, secrets: deps.secrets, rng, timeline }, `Sim${seed}x${randomBytes(3).toString("hex")}`);
  writer.create();
  const source = await createManagedSource(deps.db, deps.secrets, SYSTEM, {
    kind: "crm_object",
    organizationId,
    name: `CRM ${writer.object}`,
    syncIntervalSeconds: null,
    config: { instanceUrl: crm.url, object: writer.object, fields: null },
    credentials: { clientId: crm.clientId, clientSecret: crm.clientSecret },
  });
  writer.setSource(source.id);
  await writer.pass("crm first pass");
  return { writer, sourceId: source.id };
}

/**
 * NOTE: no shown path of the spec returns data_version and schema_version (D93): the guide's
 * shortcut devices (documented, naive) read them as a back office would, through the same domain
 * read the CLI's `source show` prints. Key-only devices never do (D152).
 */
export async function versionsOf(db: PrismaClient, sourceId: string) {
  return getDataSourceVersions(db, sourceId);
}

export async function tombstoneOf(db: PrismaClient, sourceId: string, externalId: string): Promise<string | null> {
  const row = await db.dataSourceRow.findUnique({ where: { dataSourceId_externalId: { dataSourceId: sourceId, externalId } } });
  return row?.deletedAt ? `deleted_at=${row.deletedAt.toISOString()} updated_at=${row.updatedAt.toISOString()}` : null;
}
