import { UnavailableError, errorFor, type ErrorAnswer } from "./errors.js";

/** How 429, 5xx, timeouts and network errors are retried: bounded, with jittered exponential backoff. */
export interface RetryPolicy {
  /** Requests in all, the first included (default 6). */
  attempts?: number;
  /** The first backoff's ceiling in ms (default 500); it doubles per retry. */
  baseDelayMs?: number;
  /** No single wait is longer (default 30 000): a `Retry-After` above it gives up at once. */
  maxDelayMs?: number;
  /** One request's time limit in ms (default 30 000); past it the request counts as a network error. */
  timeoutMs?: number;
  /** How to wait (tests and simulators pass their own). */
  sleep?: (ms: number) => Promise<void>;
  /** A number in [0, 1) (default Math.random): the jitter. */
  random?: () => number;
}

export interface RetryEvent {
  type: "retry";
  what: string;
  /** The attempt that failed, from 1. */
  attempt: number;
  delayMs: number;
  reason: string;
}

/** One attempt's outcome: a value, or an answer that is not 2xx. Thrown errors are network errors or bugs. */
export type Attempt<T> = { ok: true; value: T } | { ok: false; answer: ErrorAnswer; retryAfterSeconds: number | null };

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Runs `attempt` until it succeeds, retrying the retryable: 429 (waiting at least `Retry-After`),
 * 5xx and network errors (a cut connection, a truncated body, a timeout). Any other answer is
 * turned into its typed error at once; an error thrown for another reason is passed through.
 */
export async function withRetry<T>(
  what: string,
  attempt: (signal: AbortSignal | undefined) => Promise<Attempt<T>>,
  policy: RetryPolicy = {},
  onRetry: (event: RetryEvent) => void = () => undefined,
): Promise<T> {
  const attempts = Math.max(1, policy.attempts ?? 6);
  const base = policy.baseDelayMs ?? 500;
  const max = policy.maxDelayMs ?? 30_000;
  const sleep = policy.sleep ?? defaultSleep;
  const random = policy.random ?? Math.random;
  for (let n = 1; ; n++) {
    let failure: { answer: Partial<ErrorAnswer>; retryAfterMs: number; reason: string; cause?: unknown };
    try {
      const result = await attempt(timeoutSignal(policy.timeoutMs ?? 30_000));
      if (result.ok) return result.value;
      const { answer } = result;
      if (answer.status !== 429 && answer.status < 500) throw errorFor(answer, what, n);
      failure = { answer, retryAfterMs: (result.retryAfterSeconds ?? 0) * 1000, reason: `${answer.status} ${answer.code}` };
    } catch (error) {
      if (!isNetworkError(error)) throw error;
      failure = { answer: {}, retryAfterMs: 0, reason: `network error: ${describe(error)}`, cause: error };
    }
    const backoff = random() * Math.min(max, base * 2 ** (n - 1));
    const delayMs = Math.max(failure.retryAfterMs, 0) + backoff;
    if (n >= attempts || failure.retryAfterMs > max) {
      const answer = failure.answer;
      const text = `${what}: gave up after ${n} attempt(s): ${failure.reason}${answer.message ? `: ${answer.message}` : ""}${answer.requestId ? ` (request ${answer.requestId})` : ""}`;
      throw new UnavailableError(text, answer, n, { cause: failure.cause });
    }
    onRetry({ type: "retry", what, attempt: n, delayMs: Math.round(delayMs), reason: failure.reason });
    await sleep(Math.min(delayMs, max));
  }
}

/** A failure of the transport rather than an answer: fetch's TypeError, a cut or truncated body, an abort or timeout. */
function isNetworkError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  return error instanceof TypeError || error instanceof SyntaxError || error.name === "AbortError" || error.name === "TimeoutError";
}

function timeoutSignal(ms: number): AbortSignal | undefined {
  return typeof AbortSignal !== "undefined" && typeof AbortSignal.timeout === "function" ? AbortSignal.timeout(ms) : undefined;
}

function describe(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

/** `Retry-After` in seconds (the API sends whole seconds; an HTTP date is honoured too). */
export function parseRetryAfter(value: string | null, now = Date.now()): number | null {
  if (value === null || value.trim() === "") return null;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds);
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, (date - now) / 1000);
}
