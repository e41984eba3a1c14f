import { z } from "zod";

export const meOutput = z.object({
  userId: z.string(),
  email: z.string(),
  name: z.string().nullable(),
  isInstanceOwner: z.boolean(),
  isSupport: z.boolean(),
  memberships: z.array(z.object({ organizationId: z.string(), organizationName: z.string(), role: z.enum(["admin", "member"]) })),
});
