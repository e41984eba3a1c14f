import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import { AppError } from "@/server/errors/app-error";
import { boundedMemo } from "@/server/lib/bounded-memo";
import { canonicalJson } from "@/server/lib/canonical-json";
import { isFloat8Text, isStorableInstant } from "@/server/db/postgres-values";
import { stringProblem } from "@/server/lib/storable-json";
import { cursorSecret } from "./cursor-secret";

/** What a cursor is valid for: the endpoint, the sort and the filters of the first page. */
export interface CursorBinding {
  readonly endpoint: string;
  readonly sort: string;
  readonly filters?: Readonly<Record<string, unknown>>;
}

export type CursorValue = string | number | null;

/** The keyset position: the last row's sort value and its unique id (the tiebreaker). */
export type CursorPosition<V extends CursorValue = CursorValue> = [value: V, id: string];

/** Checks a decoded position's sort value and narrows it to its column's kind. */
export type CursorValueCheck<V extends CursorValue> = (value: unknown) => value is V;

/** Text Postgres can store: no NUL, no unpaired surrogate (either would be a 500 in SQL). */
function isStorableText(value: unknown): value is string {
  return typeof value === "string" && value.length <= 1024 && stringProblem(value) === null;
}

/** `Date.prototype.toISOString()` of a timestamptz(3) column: UTC, milliseconds, a real calendar instant. */
const ISO_MILLIS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

function isInstantText(value: unknown): value is string {
  if (typeof value !== "string" || !ISO_MILLIS.test(value)) return false;
  const instant = new Date(value);
  // The round trip refuses what Date would roll over (Feb 30, 24:00) or cannot read (:60).
  return isStorableInstant(instant) && instant.toISOString() === value;
}

const FLOAT8_TEXT = /^(?:-?Infinity|NaN|-?\d+(?:\.\d+)?(?:e[+-]?\d+)?)$/;

/**
 * What a position's sort value may be, per sort column. NOTE: cursors are signed, but a leaked
 * secret or a bug must still not turn a cursor into a 500: every decoded value is validated as
 * strictly as a request parameter before it reaches SQL. Plain checks, not zod schemas: a walk
 * decodes a cursor on every page, and the schemas were its largest cost after the HMAC (D346).
 */
export const cursorValues = {
  timestamp: isInstantText,
  text: isStorableText,
  /** A float8 as Postgres prints it (shortest exact form), including its special values. */
  float8: (value: unknown): value is string => typeof value === "string" && FLOAT8_TEXT.test(value) && isFloat8Text(value),
} as const;

interface CursorPayload {
  v: 1;
  /** The binding's digest. */
  b: string;
  k: [CursorValue, string];
  /** The snapshot a walk reads, set on its first page (rows endpoint: D90). */
  s?: string;
  /** The primary's WAL position its first page was read at: a replica past it may serve the walk (D404). */
  l?: string;
}

const PAYLOAD_KEYS = new Set(["v", "b", "k", "s", "l"]);
const LSN_TEXT = /^[0-9A-F]{1,8}\/[0-9A-F]{1,8}$/;

/** The signed payload's exact shape: no other key, each field of its type; anything else is not a cursor. */
function isCursorPayload(value: unknown): value is CursorPayload {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  for (const key in value) if (!PAYLOAD_KEYS.has(key)) return false;
  const { v, b, k, s, l } = value as Record<string, unknown>;
  if (v !== 1 || typeof b !== "string" || b.length !== 16) return false;
  if (!Array.isArray(k) || k.length !== 2) return false;
  const [sortValue, id] = k as unknown[];
  if (sortValue !== null && typeof sortValue !== "string" && typeof sortValue !== "number") return false;
  if (!isStorableText(id) || id.length === 0) return false;
  if (l !== undefined && (typeof l !== "string" || !LSN_TEXT.test(l))) return false;
  return s === undefined || isInstantText(s);
}

/** 22 base64url characters: 132 bits of HMAC-SHA256. */
const CHECKSUM_LENGTH = 22;

/**
 * Digests of recent bindings. A walk asks for the same binding on every page (once to check the
 * cursor it got, once to sign the next); bindings are built in code with a fixed key order, so
 * their plain JSON names them for the memo, and the canonical form is hashed only on a miss.
 */
const digests = boundedMemo<string>(512);
/** A request checks its cursor and signs the next one with the same binding object: named once. */
const digestOfBinding = new WeakMap<CursorBinding, string>();

function bindingDigest(binding: CursorBinding): string {
  let digest = digestOfBinding.get(binding);
  if (digest === undefined) {
    digest = digests(JSON.stringify(binding), () => createHash("sha256").update(canonicalJson(binding)).digest("hex").slice(0, 16));
    digestOfBinding.set(binding, digest);
  }
  return digest;
}

/** Keyed with the server's cursor secret: a client cannot forge a position (D47). */
function checksum(body: string): string {
  return createHmac("sha256", cursorSecret()).update(body).digest("base64url").slice(0, CHECKSUM_LENGTH);
}

function checksumMatches(body: string, given: string): boolean {
  const expected = Buffer.from(checksum(body));
  const actual = Buffer.from(given);
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

/**
 * Opaque to callers (spec 4.2.4): base64url of a small JSON payload plus its HMAC, so a
 * tampered, truncated or forged cursor is a clean 400 rather than a silently different position.
 */
export function encodeCursor(binding: CursorBinding, position: CursorPosition, snapshot?: string, lsn?: string): string {
  const body = JSON.stringify({
    v: 1,
    b: bindingDigest(binding),
    k: position,
    ...(snapshot === undefined ? {} : { s: snapshot }),
    ...(lsn === undefined ? {} : { l: lsn }),
  });
  return Buffer.from(`${checksum(body)}${body}`, "utf8").toString("base64url");
}

export function decodeCursor<V extends CursorValue>(cursor: string, binding: CursorBinding, value: CursorValueCheck<V>): CursorPosition<V> {
  return decodeCursorState(cursor, binding, value).position;
}

/** The position and, for walks that read a snapshot, its stamp (ISO 8601, milliseconds). */
export function decodeCursorState<V extends CursorValue>(
  cursor: string,
  binding: CursorBinding,
  value: CursorValueCheck<V>,
): { position: CursorPosition<V>; snapshot: string | undefined; lsn?: string } {
  const decoded = Buffer.from(cursor, "base64url");
  // NOTE: base64url decoding ignores junk and unused trailing bits; re-encoding catches both.
  if (decoded.toString("base64url") !== cursor) throw invalidCursor();
  const text = decoded.toString("utf8");
  const body = text.slice(CHECKSUM_LENGTH);
  if (text.length <= CHECKSUM_LENGTH || !checksumMatches(body, text.slice(0, CHECKSUM_LENGTH))) throw invalidCursor();
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    throw invalidCursor();
  }
  if (!isCursorPayload(parsed)) throw invalidCursor();
  if (parsed.b !== bindingDigest(binding)) {
    throw new AppError("bad_request", "Invalid cursor: it belongs to another endpoint, sort or set of filters. Start again without a cursor.", {
      details: { parameter: "cursor" },
    });
  }
  const sortValue = parsed.k[0];
  if (!value(sortValue)) throw invalidCursor();
  return { position: [sortValue, parsed.k[1]], snapshot: parsed.s, ...(parsed.l === undefined ? {} : { lsn: parsed.l }) };
}

function invalidCursor(): AppError {
  return new AppError("bad_request", "Invalid cursor: pass meta.next_cursor back verbatim.", {
    details: { parameter: "cursor" },
  });
}
