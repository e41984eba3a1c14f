import { z } from "zod";
import { isoString } from "../iso";

const userSummary = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string().nullable(),
  instanceRole: z.enum(["none", "support", "owner"]),
  disabled: z.boolean(),
  lockedAddresses: z.number().int(),
  openSessions: z.number().int(),
  createdAt: isoString,
  memberships: z.array(z.object({ organizationId: z.string(), organizationName: z.string(), role: z.enum(["admin", "member"]) })),
});

export const listUsersOutput = z.object({ items: z.array(userSummary), nextCursor: z.string().nullable() });
