import { actingInOrganization, type ActingPrincipal } from "@/server/modules/access/acting-principal";
import { requireInstanceRead, requireOrganizationAdmin, requireOrganizationRead, type Viewer } from "@/server/modules/access/viewer";

/**
 * The principal a viewer acts through on one organization's sources, after the role check:
 * read (owners, support, members) or manage (owners, that organization's admins). The domain then
 * treats a source of any other organization as absent (D104), so a source id from elsewhere is a 404.
 */
export function sourcePrincipal(viewer: Viewer, organizationId: string, access: "read" | "manage"): ActingPrincipal {
  if (access === "read") requireOrganizationRead(viewer, organizationId);
  else requireOrganizationAdmin(viewer, organizationId);
  return actingInOrganization(organizationId, { type: "user", id: viewer.userId });
}

/** The support board: owners and support read every organization's sources. */
export function boardPrincipal(viewer: Viewer): ActingPrincipal {
  requireInstanceRead(viewer);
  return { actor: { type: "user", id: viewer.userId }, reach: "instance" };
}
