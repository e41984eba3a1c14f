import type { KeyScope } from "@/server/modules/api-keys/key-scope";
import {
  requireInstanceOwner,
  requireInstanceRead,
  requireOrganizationAdmin,
  requireOrganizationRead,
  type Viewer,
} from "@/server/modules/access/viewer";

/**
 * The key scope a viewer works in, after checking they may: read (owners, support, members
 * of that organization) or manage (owners; admins of that organization; instance keys: owners only).
 */
export function keyScopeFor(viewer: Viewer, organizationId: string | null, access: "read" | "manage"): KeyScope {
  if (organizationId === null) {
    if (access === "read") requireInstanceRead(viewer);
    else requireInstanceOwner(viewer);
    return { kind: "instance" };
  }
  if (access === "read") requireOrganizationRead(viewer, organizationId);
  else requireOrganizationAdmin(viewer, organizationId);
  return { kind: "organization", organizationId };
}
