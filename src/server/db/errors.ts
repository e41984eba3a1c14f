import { AppError } from "@/server/errors/app-error";
import { Prisma } from "./generated/client";

/** Prisma's P2002: a unique constraint refused the write. */
export function isUniqueViolation(error: unknown): boolean {
  return error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002";
}

/** Prisma codes for a database that cannot be reached, closed the connection or timed out. */
const UNAVAILABLE_PRISMA_CODES = new Set(["P1001", "P1002", "P1008", "P1017", "P2024", "P2028"]);
/**
 * SQLSTATE classes and codes that say "not now" rather than "wrong request": connection
 * exceptions (08), the server shutting down or starting (57P01–57P03), too many connections
 * (53300), and a statement cancelled by the statement timeout (57014).
 */
const UNAVAILABLE_SQLSTATE = /^(08...|57P0[1-3]|53300|57014)$/;
const UNAVAILABLE_NODE_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "EPIPE", "ETIMEDOUT", "ENOTFOUND", "EHOSTUNREACH", "EAI_AGAIN"]);
const UNAVAILABLE_MESSAGE =
  /Connection terminated|connection (?:was )?closed|Can't reach database server|Server has closed the connection|terminating connection|the database system is (?:starting up|shutting down)|timeout exceeded when trying to connect|canceling statement due to statement timeout|Timed out fetching a new connection|ECONNREFUSED|ECONNRESET/i;

/**
 * Whether an error (or any error in its cause chain) means the database is unavailable: the
 * request did not fail on its merits, and the same request may succeed on a retry.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  const seen = new Set<unknown>();
  for (let current: unknown = error; current && typeof current === "object" && !seen.has(current);) {
    seen.add(current);
    const fields = current as { code?: unknown; errorCode?: unknown; message?: unknown; cause?: unknown; originalCode?: unknown; kind?: unknown };
    for (const code of [fields.code, fields.errorCode, fields.originalCode]) {
      if (typeof code !== "string") continue;
      if (UNAVAILABLE_PRISMA_CODES.has(code) || UNAVAILABLE_SQLSTATE.test(code) || UNAVAILABLE_NODE_CODES.has(code)) return true;
    }
    if (fields.kind === "DatabaseNotReachable" || fields.kind === "ConnectionClosed" || fields.kind === "SocketTimeout") return true;
    if (typeof fields.message === "string" && UNAVAILABLE_MESSAGE.test(fields.message)) return true;
    current = fields.cause;
  }
  return false;
}

/** How long a client should wait before retrying a request the database could not serve. */
const UNAVAILABLE_RETRY_AFTER_SECONDS = 2;

/** The answer to a request the database could not serve: a 503 a client retries, never a bare 500. */
export function databaseUnavailable(cause?: unknown): AppError {
  return new AppError("service_unavailable", "The database is unavailable; retry shortly.", {
    headers: { "Retry-After": String(UNAVAILABLE_RETRY_AFTER_SECONDS) },
    cause,
  });
}
