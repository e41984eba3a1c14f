import type { ActingPrincipal } from "@/server/modules/access/acting-principal";
import { requireInstanceOwner, type Viewer } from "@/server/modules/access/viewer";

/** An instance owner acts for the whole instance (the domain's ActingPrincipal). */
export function ownerPrincipal(viewer: Viewer): ActingPrincipal {
  requireInstanceOwner(viewer);
  return { actor: { type: "user", id: viewer.userId }, reach: "instance" };
}
