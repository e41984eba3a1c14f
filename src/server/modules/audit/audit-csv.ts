import type { AuditEventRow } from "./list-audit-events";

export const AUDIT_CSV_HEADER = ["time", "action", "actor_type", "actor_id", "actor", "organization_id", "organization", "target_type", "target_id", "metadata"];

/**
 * One CSV cell. NOTE: a cell starting with = + - @ tab or CR is read as a formula by spreadsheet
 * programs (CSV injection): it is prefixed with a single quote so it stays text (D201).
 */
export function csvCell(value: string | null | undefined): string {
  let text = value ?? "";
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

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
