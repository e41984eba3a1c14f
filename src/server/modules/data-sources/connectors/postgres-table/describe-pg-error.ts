import { redactSecrets } from "@/server/modules/outbound/redact";
import { describePostgresTarget, type PostgresTarget } from "../targets/postgres-target";

/**
 * Turns what node-postgres throws into a sentence an operator can act on. Messages from the
 * server never contain the password; redact it anyway in case a driver message echoes it.
 */
export function describePgError(error: unknown, where: PostgresTarget): string {
  const target = describePostgresTarget(where);
  const err = error as { code?: string; message?: string };
  const message = typeof err?.message === "string" ? err.message : String(error);
  let reason: string;
  switch (err?.code) {
    case "ECONNREFUSED":
      reason = `the database server at ${target} refused the connection (is it running?)`;
      break;
    case "ENOTFOUND":
    case "EAI_AGAIN":
      reason = `the database host of ${target} could not be resolved`;
      break;
    case "ETIMEDOUT":
      reason = `timed out connecting to ${target}`;
      break;
    case "ECONNRESET":
      reason = `the connection to ${target} was reset`;
      break;
    case "28P01":
    case "28000":
      reason = `${message} at ${target} (check the user and password of the connection URL)`;
      break;
    case "3D000":
      reason = `${message} at ${target}`;
      break;
    case "57014":
      reason = `a query on ${target} timed out or was cancelled`;
      break;
    case "57P01":
    case "57P02":
    case "57P03":
      reason = `the database server at ${target} is shutting down or starting up`;
      break;
    default:
      if (/client password must be a non-empty string/.test(message)) reason = `the server at ${target} asks for a password and the connection URL has none`;
      else if (/timeout/i.test(message)) reason = `timed out talking to ${target}`;
      // "not queryable": the connection dropped while idle (between two reads of a pass).
      else if (/terminated unexpectedly|Connection terminated|connection error and is not queryable/i.test(message))
        reason = `the connection to ${target} was closed unexpectedly`;
      else reason = `${message} (${target})`;
  }
  return redactSecrets(reason, [where.password ?? undefined]);
}
