import type { PrismaClient } from "@/server/db/types";
import type { AuditEventInput } from "../audit/record-audit-event";
import { approveDeletions, type ApprovedDeletions } from "./approve-deletions";
import { replaceCsvRows, type CsvReplaceResult } from "./csv/replace-csv-rows";
import { requireSource } from "./require-source";
import { requestSourceSync } from "./sync-queue";

/*
 * The actions of a source's page, each refused outside the organization it is called for.
 * Who may act (organization admins of that organization, instance owners) is the transport's
 * role check; these make sure the source is that organization's.
 */

/** "Sync now": queues a pass; poll getSyncActivity(…, since: requestedAt) for its progress. */
export async function requestSync(db: PrismaClient, organizationId: string, sourceId: string): Promise<{ requestedAt: Date }> {
  await requireSource(db, organizationId, sourceId);
  const requestedAt = new Date();
  await requestSourceSync(db, sourceId);
  return { requestedAt };
}

export async function approveSourceDeletions(
  db: PrismaClient,
  organizationId: string,
  sourceId: string,
  actor: AuditEventInput["actor"],
): Promise<ApprovedDeletions> {
  await requireSource(db, organizationId, sourceId);
  return approveDeletions(db, sourceId, actor);
}

/** A CSV upload: replaces the rows wholesale (data_version + 1) or changes nothing and names the line. */
export async function uploadSourceCsv(db: PrismaClient, organizationId: string, sourceId: string, content: string): Promise<CsvReplaceResult> {
  await requireSource(db, organizationId, sourceId);
  return replaceCsvRows(db, sourceId, content);
}
