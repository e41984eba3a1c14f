import { z } from "zod";
import type { Invitation } from "@/server/modules/memberships/invitations";
import { iso, isoString } from "../iso";
import { memberSchema, roleSchema } from "./member.types";

export const addMemberInput = z.object({
  organizationId: z.string().min(1).max(200),
  email: z.email("Enter an email address").max(320),
  role: roleSchema,
});

/** An invitation as its organization's admins see it (D181, D470): never its token or hash. */
export const invitationSchema = z.object({
  id: z.string(),
  email: z.string(),
  role: roleSchema,
  createdAt: isoString,
  sentAt: isoString.nullable(),
  expiresAt: isoString.nullable(),
  state: z.enum(["pending", "expired"]),
});

/**
 * How the link left: by mail, or back to the admin to copy once (no relay, or the relay refused).
 * The same for an email with an account and one without (D475).
 */
export const deliverySchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("mailed") }),
  z.object({ kind: z.literal("link"), link: z.string(), reason: z.enum(["no_relay", "mail_failed"]), failure: z.string().nullable() }),
]);

export const toInvitationDto = (i: Invitation): z.infer<typeof invitationSchema> => ({
  id: i.id,
  email: i.email,
  role: i.role,
  createdAt: iso(i.createdAt),
  sentAt: i.sentAt ? iso(i.sentAt) : null,
  expiresAt: i.expiresAt ? iso(i.expiresAt) : null,
  state: i.state,
});

/** Instance owners attach an existing account; organization admins invite an email (D181). */
export const addMemberOutput = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("added"), member: memberSchema }),
  z.object({ kind: z.literal("invited"), invitation: invitationSchema, delivery: deliverySchema }),
]);
