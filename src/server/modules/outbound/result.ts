/**
 * Expected failures of a call out (an unreachable source, bad credentials, a table that is gone,
 * a refused alert channel) are values, not exceptions: a connector's become sync_status = error
 * with a readable sync_error, a sender's a failed delivery. Exceptions are left for bugs.
 */
export type Result<T> = { ok: true; value: T } | Failure;

export interface Failure {
  ok: false;
  /** Readable, safe to store and show: never a password, token or full connection URL. */
  reason: string;
}

export function success<T>(value: T): Result<T> {
  return { ok: true, value };
}

export function failure(reason: string): Failure {
  return { ok: false, reason };
}
