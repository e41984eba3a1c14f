import { csvCell } from "@/server/modules/exports/csv-cells";
import type { AuditEventRow } from "./list-audit-events";

export const AUDIT_CSV_HEADER = [
  "time",
  "action",
  "actor_type",
  "actor_id",
  "actor",
  "organization_id",
  "organization",
  "target_type",
  "target_id",
  "target",
  "metadata",
];

/** One line of the audit export; cells are neutralised against CSV injection (D201, csv-cells.ts). */
export function auditCsvLine(row: Omit<AuditEventRow, "targetLabelAsOf" | "targetExists" | "targetOrganizationId">): string {
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
    // The target's name as of the event, as the screen and the CLI print it (D440).
    row.targetLabel,
    JSON.stringify(row.metadata ?? {}),
  ]
    .map(csvCell)
    .join(",");
}
