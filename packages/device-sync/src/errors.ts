/**
 * What can stop a pull or a submission, as classes an app can `instanceof` (or switch on `kind`).
 * Every one carries the answer's `status`, `code` and `requestId` when the server answered
 * (quote the request id when reporting a problem, docs/device-sync.md "When a request fails").
 */
export type DeviceSyncErrorKind = "unauthorized" | "forbidden" | "source-gone" | "unavailable" | "bad-request" | "stale-cursor" | "conflict";

export interface ErrorAnswer {
  status: number;
  code: string;
  message: string;
  requestId: string | null;
  details: Record<string, unknown>;
}

export abstract class DeviceSyncError extends Error {
  abstract readonly kind: DeviceSyncErrorKind;
  /** The HTTP status, or null when no answer came (network error, timeout). */
  readonly status: number | null;
  readonly code: string | null;
  readonly requestId: string | null;
  readonly details: Record<string, unknown>;

  constructor(message: string, answer: Partial<ErrorAnswer> = {}, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
    this.status = answer.status ?? null;
    this.code = answer.code ?? null;
    this.requestId = answer.requestId ?? null;
    this.details = answer.details ?? {};
  }
}

/** 401: the key is missing, revoked or expired. Stop syncing until the device has a new key. */
export class UnauthorizedError extends DeviceSyncError {
  readonly kind = "unauthorized" as const;
}

/**
 * 403: the key lacks a scope (`missingScope`, e.g. `data_sources:read`, read from the answer) or
 * belongs to another organization (`missingScope` null). Stop.
 */
export class ForbiddenError extends DeviceSyncError {
  readonly kind = "forbidden" as const;
  readonly missingScope: string | null;
  constructor(message: string, answer: Partial<ErrorAnswer> = {}) {
    super(message, answer);
    this.missingScope = scopeOf(answer);
  }
}

/** 404: the data source (or the form) is gone, or never was in that organization. Stop and drop the copy. */
export class SourceGoneError extends DeviceSyncError {
  readonly kind = "source-gone" as const;
}

/**
 * 429, 5xx, a timeout or a network error that outlasted the bounded retries. Nothing is lost:
 * the store holds every page committed so far, so the next `pull()` goes on from there.
 */
export class UnavailableError extends DeviceSyncError {
  readonly kind = "unavailable" as const;
  /** Requests made, the first included. */
  readonly attempts: number;
  constructor(message: string, answer: Partial<ErrorAnswer>, attempts: number, options?: { cause?: unknown }) {
    super(message, answer, options);
    this.attempts = attempts;
  }
}

/** Another 400: a bug in the request (the message names the parameter). Do not retry unchanged. */
export class BadRequestError extends DeviceSyncError {
  readonly kind = "bad-request" as const;
}

/**
 * A cursor refused (400 naming `cursor`): the library restarts that walk by itself; this is thrown
 * only when the walk was restarted `maxWalkRestarts` times in a row and still failed.
 */
export class StaleCursorError extends DeviceSyncError {
  readonly kind = "stale-cursor" as const;
}

/** 409 on a submission: the idempotency key was used before with a different body. */
export class ConflictError extends DeviceSyncError {
  readonly kind = "conflict" as const;
}

function scopeOf(answer: Partial<ErrorAnswer>): string | null {
  const fromDetails = answer.details?.required_scope;
  if (typeof fromDetails === "string") return fromDetails;
  const match = /required scope ([a-z_]+:[a-z_*]+)/i.exec(answer.message ?? "");
  return match?.[1] ?? null;
}

/** The typed error for a non-2xx answer (429 and 5xx only once retries are spent). */
export function errorFor(answer: ErrorAnswer, what: string, attempts = 1): DeviceSyncError {
  const text = `${what}: ${answer.status} ${answer.code}: ${answer.message}${answer.requestId ? ` (request ${answer.requestId})` : ""}`;
  if (answer.status === 401) return new UnauthorizedError(text, answer);
  if (answer.status === 403) return new ForbiddenError(text, answer);
  if (answer.status === 404) return new SourceGoneError(text, answer);
  if (answer.status === 409) return new ConflictError(text, answer);
  if (answer.status === 400 && answer.details.parameter === "cursor") return new StaleCursorError(text, answer);
  if (answer.status === 429 || answer.status >= 500) return new UnavailableError(text, answer, attempts);
  return new BadRequestError(text, answer);
}
