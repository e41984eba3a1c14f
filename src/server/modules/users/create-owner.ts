import { z } from "zod";
import type { Db } from "@/server/db/types";
import { AppError } from "@/server/errors/app-error";
import { isUniqueViolation } from "@/server/db/errors";
import { hashPassword, MIN_PASSWORD_LENGTH } from "./passwords";

export const ownerInputSchema = z.object({
  email: z.email().transform((email) => email.toLowerCase()),
  password: z.string().min(MIN_PASSWORD_LENGTH, `must be at least ${MIN_PASSWORD_LENGTH} characters`),
  name: z.string().trim().min(1).max(200).optional(),
});

export interface CreatedOwner {
  id: string;
  email: string;
  createdAt: Date;
}

/** An instance owner: signs in to the dashboard and may mint instance-scoped keys. */
export async function createInstanceOwner(db: Db, input: z.input<typeof ownerInputSchema>): Promise<CreatedOwner> {
  const parsed = ownerInputSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new AppError("bad_request", `Invalid ${String(issue?.path[0] ?? "input")}: ${issue?.message ?? "invalid"}`);
  }
  const passwordHash = await hashPassword(parsed.data.password);
  try {
    const user = await db.user.create({
      data: { email: parsed.data.email, name: parsed.data.name, passwordHash, isInstanceOwner: true },
      select: { id: true, email: true, createdAt: true },
    });
    return user;
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError("conflict", `A user with email ${parsed.data.email} already exists.`);
    throw error;
  }
}
