/**
 * Expected failures of a connector (unreachable source, bad credentials, a table that is gone)
 * are values, not exceptions: they become sync_status = error with a readable sync_error.
 * Exceptions are left for bugs.
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
