import type { Db } from "@/server/db/types";
import { AppError } from "@/server/errors/app-error";
import type { ActingPrincipal } from "@/server/modules/access/acting-principal";
import { canReadOrganization, type Viewer } from "@/server/modules/access/viewer";
import { scopedPrincipal } from "./key-access";

/**
 * The principal a viewer works on alerts through, after the role check (D211): instance
 * channels (organizationId null) are read by owners and support and changed by owners; an
 * organization's are read by its members and changed by its admins and owners.
 */
export function alertPrincipal(viewer: Viewer, organizationId: string | null, access: "read" | "manage"): ActingPrincipal {
  const principal = scopedPrincipal(viewer, organizationId, access);
  // An owner acting on an organization's rules may point them at instance channels.
  return viewer.isInstanceOwner ? { ...principal, reach: "instance" } : principal;
}

/**
 * The organization a channel belongs to (null: the instance's), or not_found when the viewer
 * cannot even read its scope: another tenant's channel id reads as absent.
 */
export async function channelScope(db: Db, viewer: Viewer, channelId: string): Promise<string | null> {
  const channel = await db.alertChannel.findFirst({ where: { id: channelId, deletedAt: null }, select: { organizationId: true } });
  const readable =
    channel && (channel.organizationId === null ? viewer.isInstanceOwner || viewer.isSupport : canReadOrganization(viewer, channel.organizationId));
  if (!channel || !readable) throw new AppError("not_found", `No alert channel ${channelId}.`);
  return channel.organizationId;
}
