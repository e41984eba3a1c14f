import { actingInOrganization, type ActingPrincipal } from "@/server/modules/access/acting-principal";
import { requireInstanceOwner, requireInstanceRead, requireOrganizationAdmin, requireOrganizationRead, type Viewer } from "@/server/modules/access/viewer";

/**
 * The principal a viewer works on alerts through, after the role check (D211): instance
 * channels (organizationId null) are read by owners and support and changed by owners; an
 * organization's are read by its members and changed by its admins and owners.
 */
export function alertPrincipal(viewer: Viewer, organizationId: string | null, access: "read" | "manage"): ActingPrincipal {
  const actor = { type: "user" as const, id: viewer.userId };
  if (organizationId === null) {
    if (access === "read") requireInstanceRead(viewer);
    else requireInstanceOwner(viewer);
    return { actor, reach: "instance" };
  }
  if (access === "read") requireOrganizationRead(viewer, organizationId);
  else requireOrganizationAdmin(viewer, organizationId);
  // An owner acting on an organization's rules may point them at instance channels.
  return viewer.isInstanceOwner ? { actor, reach: "instance" } : actingInOrganization(organizationId, actor);
}
