import type { Db, Prisma } from "@/server/db/types";

export type ActorType = "user" | "cli" | "api_key" | "system" | "anonymous";

export interface AuditEventInput {
  action: string;
  actor: { type: ActorType; id?: string | null };
  organizationId?: string | null;
  target: { type: string; id: string };
  metadata?: Prisma.InputJsonObject;
}

/** Append-only: callers pass their transaction so the event commits with the action. */
export async function recordAuditEvent(db: Db, event: AuditEventInput): Promise<void> {
  await db.auditEvent.create({
    data: {
      action: event.action,
      actorType: event.actor.type,
      actorId: event.actor.id ?? null,
      organizationId: event.organizationId ?? null,
      targetType: event.target.type,
      targetId: event.target.id,
      metadata: event.metadata ?? {},
    },
  });
}
