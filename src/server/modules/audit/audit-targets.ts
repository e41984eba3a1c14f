import type { Db, Prisma } from "@/server/db/types";

/**
 * What an audit event names as its target (D440): a key's name and prefix, a source's, form's,
 * organization's or channel's name, a user's or invitee's email. Written into the event's row
 * when it happens (so a later rename or delete leaves the trail as it was), and worked out at
 * read time for the events written before the column existed.
 */
export interface TargetRef {
  type: string;
  id: string;
}

/** Where the target stands now: whether it still exists, and the organization it lives in. */
export interface TargetNow {
  exists: boolean;
  organizationId: string | null;
  /** Its current name, for an old event whose row and metadata name nothing. */
  label: string | null;
}

const text = (value: unknown): string | null => (typeof value === "string" && value.trim() ? value : null);

function keyLabel(name: string | null, prefix: string | null): string | null {
  if (name && prefix) return `${name} (${prefix}…)`;
  return name ?? (prefix ? `${prefix}…` : null);
}

/** The label an event's own metadata gives its target, as of the event (null: it names none). */
export function labelFromMetadata(action: string, targetType: string, metadata: Prisma.JsonValue | undefined): string | null {
  const m = metadata && typeof metadata === "object" && !Array.isArray(metadata) ? (metadata as Record<string, unknown>) : {};
  switch (targetType) {
    case "api_key":
      return keyLabel(text(m.name), text(m.prefix));
    case "user":
    case "invitation":
      return text(m.email);
    case "form":
      // form.renamed recorded { from, to } before edits carried `changes` (D443): the name as of it is `to`.
      return action === "form.renamed" ? (text(m.to) ?? text(m.name)) : text(m.name);
    case "backup":
    case "address":
      return null;
    default:
      return text(m.name);
  }
}

/** Which targets exist now, and their current names and organizations: one query per target type. */
export async function targetsNow(db: Db, refs: TargetRef[]): Promise<Map<string, TargetNow>> {
  const ids = (type: string) => [...new Set(refs.filter((r) => r.type === type).map((r) => r.id))];
  const found = new Map<string, TargetNow>();
  const put = (type: string, id: string, organizationId: string | null, label: string | null) =>
    found.set(`${type}:${id}`, { exists: true, organizationId, label });
  const keys = ids("api_key");
  const sources = ids("data_source");
  const users = ids("user");
  const forms = ids("form");
  const organizations = ids("organization");
  const invitations = ids("invitation");
  const channels = ids("alert_channel");
  const [k, s, u, f, o, i, c] = await Promise.all([
    keys.length ? db.apiKey.findMany({ where: { id: { in: keys } }, select: { id: true, name: true, prefix: true, organizationId: true } }) : [],
    sources.length ? db.dataSource.findMany({ where: { id: { in: sources }, deletingAt: null }, select: { id: true, name: true, organizationId: true } }) : [],
    users.length ? db.user.findMany({ where: { id: { in: users } }, select: { id: true, email: true } }) : [],
    forms.length ? db.form.findMany({ where: { id: { in: forms } }, select: { id: true, name: true, organizationId: true } }) : [],
    organizations.length ? db.organization.findMany({ where: { id: { in: organizations } }, select: { id: true, name: true } }) : [],
    invitations.length ? db.membershipInvitation.findMany({ where: { id: { in: invitations } }, select: { id: true, email: true, organizationId: true } }) : [],
    channels.length
      ? db.alertChannel.findMany({ where: { id: { in: channels }, deletedAt: null }, select: { id: true, name: true, organizationId: true } })
      : [],
  ]);
  for (const r of k) put("api_key", r.id, r.organizationId, keyLabel(r.name, r.prefix));
  for (const r of s) put("data_source", r.id, r.organizationId, r.name);
  for (const r of u) put("user", r.id, null, r.email);
  for (const r of f) put("form", r.id, r.organizationId, r.name);
  for (const r of o) put("organization", r.id, r.id, r.name);
  for (const r of i) put("invitation", r.id, r.organizationId, r.email);
  for (const r of c) put("alert_channel", r.id, r.organizationId, r.name);
  return found;
}

/** The target types whose rows targetsNow looks up; of any other (a backup file, a client address) nothing is known. */
export const TRACKED_TARGET_TYPES: ReadonlySet<string> = new Set(["api_key", "data_source", "user", "form", "organization", "invitation", "alert_channel"]);

export const GONE: TargetNow = { exists: false, organizationId: null, label: null };

/** The label to store when an event is written: the caller's, else its metadata's, else the target's name now. */
export async function labelAtWrite(
  db: Db,
  action: string,
  target: TargetRef & { label?: string | null },
  metadata: Prisma.InputJsonObject | undefined,
): Promise<string | null> {
  if (target.label !== undefined) return target.label;
  const fromMetadata = labelFromMetadata(action, target.type, (metadata ?? {}) as Prisma.JsonValue);
  if (fromMetadata) return fromMetadata;
  return (await targetsNow(db, [target])).get(`${target.type}:${target.id}`)?.label ?? null;
}
