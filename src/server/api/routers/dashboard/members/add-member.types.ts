import { z } from "zod";
import { memberSchema, roleSchema } from "./member.types";

export const addMemberInput = z.object({
  organizationId: z.string().min(1).max(200),
  email: z.email("Enter the account's email address").max(320),
  role: roleSchema,
});
export const addMemberOutput = memberSchema;
