import { canReadOrganization, type Viewer } from "@/server/modules/access/viewer";

/**
 * Whose requests and audit events a viewer may read (D197): owners and support everything,
 * everyone else the organizations they belong to. Outside it, a row simply is not there.
 */
export type LogReach = { kind: "all" } | { kind: "organizations"; organizationIds: string[] };

export function logReachFor(viewer: Viewer): LogReach {
  if (viewer.isInstanceOwner || viewer.isSupport) return { kind: "all" };
  return { kind: "organizations", organizationIds: viewer.memberships.map((m) => m.organizationId) };
}

export function reachIncludes(reach: LogReach, organizationId: string | null): boolean {
  if (reach.kind === "all") return true;
  return organizationId !== null && reach.organizationIds.includes(organizationId);
}

export function viewerReaches(viewer: Viewer, organizationId: string | null): boolean {
  return organizationId === null ? viewer.isInstanceOwner || viewer.isSupport : canReadOrganization(viewer, organizationId);
}
