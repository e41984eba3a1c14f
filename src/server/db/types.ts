import type { Prisma, PrismaClient } from "./generated/client";

/** What domain functions take: the client, or the transaction they are asked to join. */
export type Db = PrismaClient | Prisma.TransactionClient;

export type { Prisma, PrismaClient };
