import type { PrismaClient } from "@/server/db/types";
import { salesforceDate } from "./fake-crm-deleted";
import type { FakeCrm, ObjectOptions } from "./fake-crm-server";
import { createCrmSource, syncNow } from "./source-fixtures";

export type CrmRecord = Record<string, unknown> & { Id: string };

/** Ids in Salesforce's shape, in read (Id) order. */
export const accountId = (i: number) => `001${String(i).padStart(12, "0")}`;

/**
 * `n` records last changed an hour ago by the CRM's clock: older than any overlap, so a
 * modified-since read after a first pass reads only what the test changes.
 */
export function oldAccounts(crm: FakeCrm, n: number): CrmRecord[] {
  const stamp = salesforceDate(new Date(crm.now().getTime() - 3_600_000));
  return Array.from({ length: n }, (_, i) => ({ Id: accountId(i), Name: `Account ${i}`, SystemModstamp: stamp }));
}

/** The records with some renamed (their stamp dropped, so the CRM stamps them now). */
export function renamed(records: CrmRecord[], ids: Set<number>, name = (i: number) => `Renamed ${i}`): CrmRecord[] {
  return records.map((record, i) => (ids.has(i) ? { Id: record.Id, Name: name(i) } : record));
}

/** A CRM object of `records` and a source mirroring it, after its first pass (a full compare). */
export async function syncedCrmObject(db: PrismaClient, crm: FakeCrm, records: CrmRecord[], options: ObjectOptions & { fields?: string[] | null } = {}) {
  const object = `Obj${Math.random().toString(36).slice(2, 8)}`;
  crm.setRecords(object, ["Name"], records, options);
  const sourceId = await createCrmSource(db, { instanceUrl: crm.url, object, clientId: crm.clientId, clientSecret: crm.clientSecret, fields: options.fields });
  const first = await syncNow(db, sourceId, { batchSize: 200 });
  if (first.status !== "ok") throw new Error(`first pass: ${first.status} ${first.error}`);
  return { object, sourceId, firstRunId: first.syncRunId! };
}

export async function runOf(db: PrismaClient, runId: string | null) {
  return db.syncRun.findUniqueOrThrow({ where: { id: runId! } });
}

/** The requests a pass sent, from `from` on, with query strings dropped and locators generalised. */
export function requestsSince(crm: FakeCrm, from: number): string[] {
  return crm.requests.slice(from).map((request) => request.replace(/\/query\/01g\w+-\d+$/, "/query/<locator>").replace(/\/v\d+\.\d+\//, "/vXX/"));
}
