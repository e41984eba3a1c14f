import { actingInOrganization, type ActingPrincipal } from "./acting-principal";
import {
  requireInstanceOwner,
  requireInstanceRead,
  requireOrganizationAdmin,
  requireOrganizationRead,
  type Viewer,
} from "@/server/modules/access/viewer";

/**
 * The principal a viewer acts through on keys, after checking they may: read (owners, support,
 * members of that organization) or manage (owners; admins of that organization; instance keys:
 * owners only). On an organization's keys it reaches that organization only, on the instance's
 * (organizationId null) the instance.
 */
export function keyPrincipalFor(viewer: Viewer, organizationId: string | null, access: "read" | "manage"): ActingPrincipal {
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
