import type { Db, Prisma } from "@/server/db/types";
import { labelAtWrite } from "./audit-targets";

export type ActorType = "user" | "cli" | "api_key" | "system" | "anonymous";

export interface AuditEventInput {
  action: string;
  actor: { type: ActorType; id?: string | null };
  organizationId?: string | null;
  /** `label`: the target's name as of the event; left out, it comes from the metadata or the target's row (D440). */
  target: { type: string; id: string; label?: string | null };
  metadata?: Prisma.InputJsonObject;
}

/** Append-only: callers pass their transaction so the event commits with the action. */
export async function recordAuditEvent(db: Db, event: AuditEventInput): Promise<{ id: string }> {
  const targetLabel = await labelAtWrite(db, event.action, event.target, event.metadata);
  return db.auditEvent.create({
    data: {
      action: event.action,
      actorType: event.actor.type,
      actorId: event.actor.id ?? null,
      organizationId: event.organizationId ?? null,
      targetType: event.target.type,
      targetId: event.target.id,
      targetLabel: targetLabel?.slice(0, 500) ?? null,
      metadata: event.metadata ?? {},
    },
    select: { id: true },
  });
}
