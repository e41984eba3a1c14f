import { CLI_OPERATOR } from "@/server/modules/access/acting-principal";
import { randomBytes } from "node:crypto";
import type { PrismaClient } from "@/server/db/types";
import { createOrganization } from "@/server/modules/organizations/create-organization";
import { createManagedSource } from "../create-managed-source";
import { createSecretBox, type SecretBox } from "../credentials/secret-box";
import { sealCredentials } from "../credentials/source-credentials";
import { runSyncPass, type SyncPassOptions } from "../sync/run-sync-pass";

/** A throwaway encryption key per test process. */
export const testSecrets = createSecretBox(randomBytes(32));

export async function createTestOrganization(db: PrismaClient): Promise<string> {
  return (await createOrganization(db, CLI_OPERATOR, `Org ${randomBytes(3).toString("hex")}`)).id;
}

export async function createTableSource(
  db: PrismaClient,
  input: { url: string; table: string; key: string; order?: string | null; columns?: string[] | null; interval?: number | null },
  secrets: SecretBox = testSecrets,
): Promise<string> {
  const organizationId = await createTestOrganization(db);
  const created = await createManagedSource(db, secrets, CLI_OPERATOR, {
    kind: "postgres_table",
    organizationId,
    name: `Table ${input.table}`,
    syncIntervalSeconds: input.interval ?? null,
    config: { table: input.table, keyColumn: input.key, orderColumn: input.order ?? null, columns: input.columns ?? null },
    credentials: { url: input.url },
  });
  return created.id;
}

export function syncNow(db: PrismaClient, sourceId: string, options: Partial<SyncPassOptions> = {}) {
  return runSyncPass({ db, secrets: testSecrets }, sourceId, { trigger: "test", timeoutMs: 5_000, ...options });
}

/** Rows as stored, keyed by external_id. */
export async function storedRows(db: PrismaClient, sourceId: string) {
  const rows = await db.dataSourceRow.findMany({ where: { dataSourceId: sourceId }, orderBy: { externalId: "asc" } });
  return new Map(rows.map((row) => [row.externalId, row]));
}

/** Sleep past the millisecond so stamps of consecutive writes differ visibly. */
export const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

export async function createCrmSource(
  db: PrismaClient,
  input: { instanceUrl: string; object: string; clientId: string; clientSecret: string; fields?: string[] | null },
): Promise<string> {
  const organizationId = await createTestOrganization(db);
  const created = await createManagedSource(db, testSecrets, CLI_OPERATOR, {
    kind: "crm_object",
    organizationId,
    name: `CRM ${input.object}`,
    config: { instanceUrl: input.instanceUrl, object: input.object, fields: input.fields ?? null },
    credentials: { clientId: input.clientId, clientSecret: input.clientSecret },
  });
  return created.id;
}

/** Points a source at other credentials (as an operator editing them would). */
export async function replaceCredentials(db: PrismaClient, sourceId: string, credentials: object): Promise<void> {
  await db.dataSource.update({ where: { id: sourceId }, data: { credentialsEncrypted: sealCredentials(testSecrets, sourceId, credentials) } });
}
