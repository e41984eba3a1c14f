import type { ActingPrincipal } from "./acting-principal";
import type { Viewer } from "./viewer";

/**
 * Who a read acts for. An ActingPrincipal reaches the instance or one organization (an API key,
 * the CLI); a dashboard member may belong to several, so a read can also reach a list of them.
 * Writes keep taking an ActingPrincipal: they act in one organization at a time.
 */
export type ReadingPrincipal = ActingPrincipal | { actor: ActingPrincipal["actor"]; reach: { organizationIds: readonly string[] } };

/** The organizations a read may return: null for every one. An empty list reaches none. */
export function readableOrganizationIds(principal: ReadingPrincipal): readonly string[] | null {
  const { reach } = principal;
  if (reach === "instance") return null;
  return "organizationIds" in reach ? reach.organizationIds : [reach.organizationId];
}

/** A dashboard viewer as a reader: owners and support reach every organization, anyone else their memberships. */
export function viewerReadingPrincipal(viewer: Viewer): ReadingPrincipal {
  const actor = { type: "user" as const, id: viewer.userId };
  if (viewer.isInstanceOwner || viewer.isSupport) return { actor, reach: "instance" };
  // NOTE: no memberships is an empty list, which reaches nothing (never "empty means all").
  return { actor, reach: { organizationIds: viewer.memberships.map((m) => m.organizationId) } };
}
