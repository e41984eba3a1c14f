import type { Db, Prisma } from "@/server/db/types";
import { cursorValues, decodeCursor, encodeCursor } from "@/server/modules/pagination/cursor";
import type { LogReach } from "@/server/modules/request-log/reach";
import { GONE, labelFromMetadata, targetsNow, TRACKED_TARGET_TYPES } from "./audit-targets";

export interface AuditFilters {
  /** A user's email, or an actor id (user, key) as stored. */
  actor?: string;
  action?: string;
  /** A target id as stored (a key, a source, a user...). */
  target?: string;
  organizationId?: string;
  from?: Date;
  to?: Date;
}

export interface AuditEventRow {
  id: string;
  createdAt: Date;
  action: string;
  actorType: string;
  actorId: string | null;
  actorLabel: string | null;
  organizationId: string | null;
  organizationName: string | null;
  targetType: string;
  targetId: string;
  /** The target's name as of the event (D440); null when nothing names it. */
  targetLabel: string | null;
  /** "event": stored or in the event's metadata; "now": an old event labelled by the target's current name. */
  targetLabelAsOf: "event" | "now" | null;
  /** Whether the target still exists (a link is shown only then; null: a kind of target not looked up), and the organization it lives in now. */
  targetExists: boolean | null;
  targetOrganizationId: string | null;
  metadata: Prisma.JsonValue;
}

type StoredEvent = Awaited<ReturnType<Db["auditEvent"]["findMany"]>>[number];

/**
 * The audit trail, newest first, by keyset on (created_at, id) (D200). Outside the viewer's
 * reach an event is simply absent: an organization admin filtering by another organization gets
 * an empty page, not a refusal.
 */
export async function listAuditEvents(
  db: Db,
  reach: LogReach,
  filters: AuditFilters,
  page: { limit: number; cursor?: string },
): Promise<{ items: AuditEventRow[]; nextCursor: string | null }> {
  const binding = {
    endpoint: "dashboard.audit",
    sort: "created_at_desc",
    filters: { ...filters, from: filters.from?.toISOString(), to: filters.to?.toISOString() },
  };
  const after = page.cursor ? decodeCursor(page.cursor, binding, cursorValues.timestamp) : undefined;
  const and: Prisma.AuditEventWhereInput[] = [];
  if (reach.kind === "organizations") and.push({ organizationId: { in: reach.organizationIds } });
  if (filters.organizationId) and.push({ organizationId: filters.organizationId });
  if (filters.action) and.push({ action: filters.action });
  if (filters.target) and.push({ targetId: filters.target });
  if (filters.actor) and.push({ actorId: { in: await actorIds(db, filters.actor) } });
  if (filters.from) and.push({ createdAt: { gte: filters.from } });
  if (filters.to) and.push({ createdAt: { lt: filters.to } });
  if (after) {
    const at = new Date(after[0]);
    and.push({ OR: [{ createdAt: { lt: at } }, { createdAt: at, id: { lt: after[1] } }] });
  }
  const rows = await db.auditEvent.findMany({
    where: { AND: and },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: page.limit + 1,
  });
  const items = rows.slice(0, page.limit);
  const last = items[items.length - 1];
  return {
    items: await toRows(db, items),
    nextCursor: rows.length > page.limit && last ? encodeCursor(binding, [last.createdAt.toISOString(), last.id]) : null,
  };
}

/** One event by id, if this reach may see it (outside it, it is simply not there). */
export async function getAuditEvent(db: Db, reach: LogReach, eventId: string): Promise<AuditEventRow | null> {
  const row = await db.auditEvent.findUnique({ where: { id: eventId } });
  if (!row) return null;
  if (reach.kind === "organizations" && (row.organizationId === null || !reach.organizationIds.includes(row.organizationId))) return null;
  return (await toRows(db, [row]))[0] ?? null;
}

/** Stored events with their actors', organizations' and targets' names, and whether each target still exists. */
async function toRows(db: Db, items: StoredEvent[]): Promise<AuditEventRow[]> {
  const [labels, now] = await Promise.all([
    describe(db, items),
    targetsNow(
      db,
      items.map((row) => ({ type: row.targetType, id: row.targetId })),
    ),
  ]);
  return items.map((row) => {
    const target = now.get(`${row.targetType}:${row.targetId}`) ?? GONE;
    // NOTE: events written before target_label (D440) are not backfilled: their metadata names
    // the target as of the event for most actions; else the target's current name, marked "now".
    const asOfEvent = row.targetLabel ?? labelFromMetadata(row.action, row.targetType, row.metadata);
    return {
      id: row.id,
      createdAt: row.createdAt,
      action: row.action,
      actorType: row.actorType,
      actorId: row.actorId,
      actorLabel: row.actorId ? (labels.actors.get(row.actorId) ?? null) : null,
      organizationId: row.organizationId,
      organizationName: row.organizationId ? (labels.organizations.get(row.organizationId) ?? null) : null,
      targetType: row.targetType,
      targetId: row.targetId,
      targetLabel: asOfEvent ?? target.label,
      targetLabelAsOf: asOfEvent ? "event" : target.label ? "now" : null,
      targetExists: TRACKED_TARGET_TYPES.has(row.targetType) ? target.exists : null,
      targetOrganizationId: target.organizationId,
      metadata: row.metadata,
    };
  });
}

async function actorIds(db: Db, actor: string): Promise<string[]> {
  const ids = [actor];
  if (actor.includes("@")) {
    const user = await db.user.findFirst({ where: { email: { equals: actor, mode: "insensitive" } }, select: { id: true } });
    if (user) ids.push(user.id);
  }
  return ids;
}

/** Emails of user actors and names of organizations (a deleted organization keeps only its id). */
async function describe(db: Db, rows: { actorType: string; actorId: string | null; organizationId: string | null }[]) {
  const userIds = [...new Set(rows.filter((r) => r.actorType === "user" && r.actorId).map((r) => r.actorId!))];
  const keyIds = [...new Set(rows.filter((r) => r.actorType === "api_key" && r.actorId).map((r) => r.actorId!))];
  const orgIds = [...new Set(rows.map((r) => r.organizationId).filter((id): id is string => id !== null))];
  const [users, keys, organizations] = await Promise.all([
    userIds.length ? db.user.findMany({ where: { id: { in: userIds } }, select: { id: true, email: true } }) : [],
    keyIds.length ? db.apiKey.findMany({ where: { id: { in: keyIds } }, select: { id: true, prefix: true } }) : [],
    orgIds.length ? db.organization.findMany({ where: { id: { in: orgIds } }, select: { id: true, name: true } }) : [],
  ]);
  return {
    actors: new Map([...users.map((u) => [u.id, u.email] as const), ...keys.map((k) => [k.id, `${k.prefix}…`] as const)]),
    organizations: new Map(organizations.map((o) => [o.id, o.name])),
  };
}

/** The actions of the events this reach may see (D371), for the filter's choices. */
export async function listAuditActions(db: Db, reach: LogReach): Promise<string[]> {
  if (reach.kind === "organizations" && reach.organizationIds.length === 0) return [];
  const rows = await db.auditEvent.findMany({
    where: reach.kind === "organizations" ? { organizationId: { in: reach.organizationIds } } : {},
    distinct: ["action"],
    select: { action: true },
    orderBy: { action: "asc" },
    take: 200,
  });
  return rows.map((r) => r.action);
}
