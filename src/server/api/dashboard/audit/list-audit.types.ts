import { z } from "zod";
import type { AuditEventRow } from "@/server/modules/audit/list-audit-events";
import { iso, isoString, optionalInstant } from "../iso";

const optionalText = z
  .string()
  .trim()
  .max(200)
  .optional()
  .transform((v) => (v ? v : undefined));

const auditFiltersInput = z.object({
  actor: optionalText,
  action: optionalText,
  target: optionalText,
  organizationId: optionalText,
  from: optionalInstant,
  to: optionalInstant,
});

export const listAuditInput = auditFiltersInput.extend({
  limit: z.number().int().min(1).max(500).default(50),
  cursor: z.string().min(1).max(2000).optional(),
});

export const auditEventSchema = z.object({
  id: z.string(),
  createdAt: isoString,
  action: z.string(),
  actorType: z.string(),
  actorId: z.string().nullable(),
  actorLabel: z.string().nullable(),
  organizationId: z.string().nullable(),
  organizationName: z.string().nullable(),
  targetType: z.string(),
  targetId: z.string(),
  targetLabel: z.string().nullable(),
  targetLabelAsOf: z.enum(["event", "now"]).nullable(),
  targetExists: z.boolean().nullable(),
  targetOrganizationId: z.string().nullable(),
  metadata: z.unknown(),
});

export const listAuditOutput = z.object({ items: z.array(auditEventSchema), nextCursor: z.string().nullable(), actions: z.array(z.string()) });

export function toAuditEventDto(row: AuditEventRow): z.infer<typeof auditEventSchema> {
  return { ...row, createdAt: iso(row.createdAt) };
}
