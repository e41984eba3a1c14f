import { Prisma } from "./generated/client";

/** Prisma's P2002: a unique constraint refused the write. */
export function isUniqueViolation(error: unknown): boolean {
  return error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002";
}
