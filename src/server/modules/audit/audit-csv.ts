import { csvCell } from "@/server/lib/csv-cells";
import type { AuditEventRow } from "./list-audit-events";

export const AUDIT_CSV_HEADER = ["time", "action", "actor_type", "actor_id", "actor", "organization_id", "organization", "target_type", "target_id", "metadata"];

/** One line of the audit export; cells are neutralised against CSV injection (D201, csv-cells.ts). */
export function auditCsvLine(row: AuditEventRow): string {
  return [
    row.createdAt.toISOString(),
    row.action,
    row.actorType,
    row.actorId,
    row.actorLabel,
    row.organizationId,
    row.organizationName,
    row.targetType,
    row.targetId,
    JSON.stringify(row.metadata ?? {}),
  ]
    .map(csvCell)
    .join(",");
}
