import { z } from "zod";

export const createUserInput = z.object({
  email: z.email("Enter an email address").max(320),
  name: z.string().trim().max(200).optional(),
  instanceRole: z.enum(["none", "support", "owner"]),
  membership: z.object({ organizationId: z.string().min(1).max(200), role: z.enum(["admin", "member"]) }).nullable(),
});

export const createUserOutput = z.object({
  id: z.string(),
  email: z.string(),
  /** Generated and shown once (D64); the user signs in with it. */
  password: z.string(),
});
