import { actingInOrganization, type ActingPrincipal } from "./acting-principal";
import { requireOrganizationAdmin, requireOrganizationRead, type Viewer } from "./viewer";

/**
 * The principal a viewer acts through on one organization's forms and records, after the role
 * check: read (owners, support, members) or manage (owners, that organization's admins, D61).
 */
export function formPrincipal(viewer: Viewer, organizationId: string, access: "read" | "manage"): ActingPrincipal {
  if (access === "read") requireOrganizationRead(viewer, organizationId);
  else requireOrganizationAdmin(viewer, organizationId);
  return actingInOrganization(organizationId, { type: "user", id: viewer.userId });
}
