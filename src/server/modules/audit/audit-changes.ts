import type { Prisma } from "@/server/db/types";

/** One field an edit changed, with its value before and after. */
export interface AuditChange {
  field: string;
  before: Prisma.JsonValue;
  after: Prisma.JsonValue;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * The before and after of an edit event (D443): its metadata's `changes` ({ field: { from, to } },
 * what data_source.edited, form.renamed and membership.role_changed record), or for a form.renamed
 * written before it carried `changes`, its { from, to }. Empty for an event that is not an edit.
 */
export function auditChanges(action: string, metadata: Prisma.JsonValue): AuditChange[] {
  if (!isObject(metadata)) return [];
  if (isObject(metadata.changes)) {
    const changes: AuditChange[] = [];
    for (const [field, change] of Object.entries(metadata.changes as Record<string, unknown>)) {
      if (isObject(change) && ("from" in change || "to" in change))
        changes.push({ field, before: (change.from ?? null) as Prisma.JsonValue, after: (change.to ?? null) as Prisma.JsonValue });
    }
    return changes;
  }
  if (action === "form.renamed" && ("from" in metadata || "to" in metadata)) {
    return [{ field: "name", before: (metadata.from ?? null) as Prisma.JsonValue, after: (metadata.to ?? null) as Prisma.JsonValue }];
  }
  return [];
}
