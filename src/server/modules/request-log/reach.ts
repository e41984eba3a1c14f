import type { Viewer } from "@/server/modules/access/viewer";

/**
 * Whose requests and audit events a viewer may read (D197): owners and support everything,
 * organization admins their organizations', members nothing. Outside it, a row is not there.
 */
export type LogReach = { kind: "all" } | { kind: "organizations"; organizationIds: string[] };

export function logReachFor(viewer: Viewer): LogReach {
  if (viewer.isInstanceOwner || viewer.isSupport) return { kind: "all" };
  return { kind: "organizations", organizationIds: viewer.memberships.filter((m) => m.role === "admin").map((m) => m.organizationId) };
}

export function reachIncludes(reach: LogReach, organizationId: string | null): boolean {
  if (reach.kind === "all") return true;
  return organizationId !== null && reach.organizationIds.includes(organizationId);
}
