import { actingInOrganization, type ActingPrincipal } from "./acting-principal";
import { requireInstanceOwner, requireInstanceRead, requireOrganizationAdmin, requireOrganizationRead, type Viewer } from "@/server/modules/access/viewer";

/**
 * The principal a viewer acts through on something scoped to one organization or to the
 * instance (organizationId null), after checking they may: read (owners, support, members of
 * that organization) or manage (owners; admins of that organization; the instance's: owners
 * only). It reaches that organization only, or the instance. Keys use it as is; alerts widen it.
 */
export function scopedPrincipal(viewer: Viewer, organizationId: string | null, access: "read" | "manage"): ActingPrincipal {
  const actor = { type: "user" as const, id: viewer.userId };
  if (organizationId === null) {
    if (access === "read") requireInstanceRead(viewer);
    else requireInstanceOwner(viewer);
    return { actor, reach: "instance" };
  }
  if (access === "read") requireOrganizationRead(viewer, organizationId);
  else requireOrganizationAdmin(viewer, organizationId);
  return actingInOrganization(organizationId, actor);
}
