import type { Db } from "@/server/db/types";
import { AppError } from "@/server/errors/app-error";

/** An organization role as the dashboard knows it (D61). The stored `owner` reads as admin. */
export type OrganizationRole = "admin" | "member";

/**
 * The signed-in person, read from the database on every request (never from the session
 * token), so a removed membership or a disabled account takes effect on the next request.
 */
export interface Viewer {
  userId: string;
  email: string;
  name: string | null;
  isInstanceOwner: boolean;
  isSupport: boolean;
  memberships: { organizationId: string; organizationName: string; role: OrganizationRole }[];
}

export function toOrganizationRole(stored: "owner" | "admin" | "member"): OrganizationRole {
  return stored === "member" ? "member" : "admin";
}

/**
 * null for an unknown or disabled user, or (given the session the request's cookie names) for a
 * session that was signed out, has expired or is behind the user's session version (D170): the
 * session no longer stands for anyone.
 */
export async function loadViewer(db: Db, userId: string, session?: { id: string; version: number }, now = new Date()): Promise<Viewer | null> {
  const user = await db.user.findUnique({
    where: { id: userId },
    select: {
      id: true,
      email: true,
      name: true,
      isInstanceOwner: true,
      isSupport: true,
      disabledAt: true,
      sessionVersion: true,
      memberships: { select: { organizationId: true, role: true, organization: { select: { name: true } } } },
      ...(session ? { sessions: { where: { id: session.id }, select: { version: true, endedAt: true, expiresAt: true } } } : {}),
    },
  });
  if (!user || user.disabledAt) return null;
  if (session) {
    const row = (user as { sessions?: { version: number; endedAt: Date | null; expiresAt: Date }[] }).sessions?.[0];
    if (!row || row.endedAt || row.expiresAt <= now || row.version !== session.version || user.sessionVersion !== session.version) return null;
  }
  return {
    userId: user.id,
    email: user.email,
    name: user.name,
    isInstanceOwner: user.isInstanceOwner,
    isSupport: user.isSupport,
    memberships: user.memberships
      .map((m) => ({ organizationId: m.organizationId, organizationName: m.organization.name, role: toOrganizationRole(m.role) }))
      .sort((a, b) => a.organizationName.localeCompare(b.organizationName)),
  };
}

export function membershipRole(viewer: Viewer, organizationId: string): OrganizationRole | null {
  return viewer.memberships.find((m) => m.organizationId === organizationId)?.role ?? null;
}

/** Owners and support see every organization; others only their own. */
export function canReadOrganization(viewer: Viewer, organizationId: string): boolean {
  return viewer.isInstanceOwner || viewer.isSupport || membershipRole(viewer, organizationId) !== null;
}

/** Owners, and admins of that organization, change its keys and members. */
export function canAdminOrganization(viewer: Viewer, organizationId: string): boolean {
  return viewer.isInstanceOwner || membershipRole(viewer, organizationId) === "admin";
}

export function requireOrganizationRead(viewer: Viewer, organizationId: string): void {
  if (!canReadOrganization(viewer, organizationId)) {
    throw new AppError("forbidden", "You are not a member of this organization.");
  }
}

export function requireOrganizationAdmin(viewer: Viewer, organizationId: string): void {
  requireOrganizationRead(viewer, organizationId);
  if (!canAdminOrganization(viewer, organizationId)) {
    throw new AppError("forbidden", "Only instance owners and this organization's admins can do this.");
  }
}

/** Instance-scoped keys and the users list: owners change them, support may look. */
export function requireInstanceRead(viewer: Viewer): void {
  if (!viewer.isInstanceOwner && !viewer.isSupport) throw new AppError("forbidden", "Only instance owners and support can see this.");
}

export function requireInstanceOwner(viewer: Viewer): void {
  if (!viewer.isInstanceOwner) throw new AppError("forbidden", "Only instance owners can do this.");
}
