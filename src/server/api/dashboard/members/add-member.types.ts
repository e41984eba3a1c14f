import { z } from "zod";
import { isoString } from "../iso";
import { memberSchema, roleSchema } from "./member.types";

export const addMemberInput = z.object({
  organizationId: z.string().min(1).max(200),
  email: z.email("Enter an email address").max(320),
  role: roleSchema,
});

/** An invitation as its organization's admins see it (D181). */
export const invitationSchema = z.object({ id: z.string(), email: z.string(), role: roleSchema, createdAt: isoString });

/** Instance owners attach an existing account; organization admins invite an email (D181). */
export const addMemberOutput = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("added"), member: memberSchema }),
  z.object({ kind: z.literal("invited"), invitation: invitationSchema }),
]);
