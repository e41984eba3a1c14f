import type { Db, Prisma, PrismaClient } from "./types";

type TransactionOptions = { maxWait?: number; timeout?: number };

/**
 * Runs `fn` in a transaction, or inside the caller's when `db` already is one: a domain function
 * stays atomic whether it is called alone or under a transaction that wraps the whole request
 * (idempotent writes commit their stored response with the operation's own writes).
 */
export function inTransaction<T>(db: Db, fn: (tx: Prisma.TransactionClient) => Promise<T>, options?: TransactionOptions): Promise<T> {
  // A copy: Prisma 7 writes the enclosing transaction's id into a nested call's options object.
  if ("$transaction" in db) return db.$transaction(fn, options && { ...options });
  return fn(db);
}

/** True for the root client (not already inside a transaction). */
export function isRootClient(db: Db): db is PrismaClient {
  return "$transaction" in db;
}
