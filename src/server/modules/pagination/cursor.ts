import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import { z } from "zod";
import { AppError } from "@/server/errors/app-error";
import { boundedMemo } from "@/server/lib/bounded-memo";
import { canonicalJson } from "@/server/lib/canonical-json";
import { isFloat8Text, isStorableInstant } from "@/server/lib/postgres-values";
import { stringProblem } from "@/server/lib/storable-json";
import { cursorSecret } from "./cursor-secret";

/** What a cursor is valid for: the endpoint, the sort and the filters of the first page. */
export interface CursorBinding {
  endpoint: string;
  sort: string;
  filters?: Record<string, unknown>;
}

export type CursorValue = string | number | null;

/** The keyset position: the last row's sort value and its unique id (the tiebreaker). */
export type CursorPosition<V extends CursorValue = CursorValue> = [value: V, id: string];

/** Text Postgres can store: no NUL, no unpaired surrogate (either would be a 500 in SQL). */
const storableText = z.string().max(1024).refine((value) => stringProblem(value) === null);

/**
 * What a position's sort value may be, per sort column. NOTE: cursors are signed, but a leaked
 * secret or a bug must still not turn a cursor into a 500: every decoded value is validated as
 * strictly as a request parameter before it reaches SQL.
 */
export const cursorValues = {
  /** `Date.prototype.toISOString()` of a timestamptz(3) column. */
  timestamp: z.iso.datetime({ precision: 3 }).refine((value) => isStorableInstant(new Date(value))),
  text: storableText,
  /** A float8 as Postgres prints it (shortest exact form), including its special values. */
  float8: z
    .string()
    .regex(/^(?:-?Infinity|NaN|-?\d+(?:\.\d+)?(?:e[+-]?\d+)?)$/)
    .refine(isFloat8Text),
} as const;

const payloadSchema = z
  .object({
    v: z.literal(1),
    b: z.string().length(16),
    k: z.tuple([z.union([z.string(), z.number(), z.null()]), storableText.pipe(z.string().min(1))]),
    /** The snapshot a walk reads, set on its first page (rows endpoint: D90). */
    s: cursorValues.timestamp.optional(),
  })
  .strict();

/** 22 base64url characters: 132 bits of HMAC-SHA256. */
const CHECKSUM_LENGTH = 22;

/**
 * Digests of recent bindings. A walk asks for the same binding on every page (once to check the
 * cursor it got, once to sign the next); bindings are built in code with a fixed key order, so
 * their plain JSON names them for the memo, and the canonical form is hashed only on a miss.
 */
const digests = boundedMemo<string>(512);

function bindingDigest(binding: CursorBinding): string {
  return digests(JSON.stringify(binding), () => createHash("sha256").update(canonicalJson(binding)).digest("hex").slice(0, 16));
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
export function encodeCursor(binding: CursorBinding, position: CursorPosition, snapshot?: string): string {
  const body = JSON.stringify({ v: 1, b: bindingDigest(binding), k: position, ...(snapshot === undefined ? {} : { s: snapshot }) });
  return Buffer.from(`${checksum(body)}${body}`, "utf8").toString("base64url");
}

export function decodeCursor<V extends CursorValue>(
  cursor: string,
  binding: CursorBinding,
  value: z.ZodType<V>,
): CursorPosition<V> {
  return decodeCursorState(cursor, binding, value).position;
}

/** The position and, for walks that read a snapshot, its stamp (ISO 8601, milliseconds). */
export function decodeCursorState<V extends CursorValue>(
  cursor: string,
  binding: CursorBinding,
  value: z.ZodType<V>,
): { position: CursorPosition<V>; snapshot: string | undefined } {
  const decoded = Buffer.from(cursor, "base64url");
  // NOTE: base64url decoding ignores junk and unused trailing bits; re-encoding catches both.
  if (decoded.toString("base64url") !== cursor) throw invalidCursor();
  const text = decoded.toString("utf8");
  const body = text.slice(CHECKSUM_LENGTH);
  if (text.length <= CHECKSUM_LENGTH || !checksumMatches(body, text.slice(0, CHECKSUM_LENGTH))) throw invalidCursor();
  let parsed: z.infer<typeof payloadSchema>;
  try {
    parsed = payloadSchema.parse(JSON.parse(body));
  } catch {
    throw invalidCursor();
  }
  if (parsed.b !== bindingDigest(binding)) {
    throw new AppError(
      "bad_request",
      "Invalid cursor: it belongs to another endpoint, sort or set of filters. Start again without a cursor.",
      { details: { parameter: "cursor" } },
    );
  }
  const checked = value.safeParse(parsed.k[0]);
  if (!checked.success) throw invalidCursor();
  return { position: [checked.data, parsed.k[1]], snapshot: parsed.s };
}

function invalidCursor(): AppError {
  return new AppError("bad_request", "Invalid cursor: pass meta.next_cursor back verbatim.", {
    details: { parameter: "cursor" },
  });
}
