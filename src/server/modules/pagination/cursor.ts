import { createHash } from "node:crypto";
import { z } from "zod";
import { AppError } from "@/server/errors/app-error";
import { canonicalJson } from "@/server/lib/canonical-json";
import { isFloat8Text, isStorableInstant } from "@/server/lib/postgres-values";

/** What a cursor is valid for: the endpoint, the sort and the filters of the first page. */
export interface CursorBinding {
  endpoint: string;
  sort: string;
  filters?: Record<string, unknown>;
}

export type CursorValue = string | number | null;

/** The keyset position: the last row's sort value and its unique id (the tiebreaker). */
export type CursorPosition<V extends CursorValue = CursorValue> = [value: V, id: string];

/**
 * What a position's sort value may be, per sort column. NOTE: the checksum only catches
 * accidents; anyone can forge a well-formed cursor, so the value is validated before it reaches
 * SQL (an unchecked "abc" cast to a timestamp or float would be a 500, not a 400).
 */
export const cursorValues = {
  /** `Date.prototype.toISOString()` of a timestamptz(3) column. */
  timestamp: z.iso.datetime({ precision: 3 }).refine((value) => isStorableInstant(new Date(value))),
  text: z.string(),
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
    k: z.tuple([z.union([z.string(), z.number(), z.null()]), z.string().min(1)]),
    /** The snapshot a walk reads, set on its first page (rows endpoint: D90). */
    s: cursorValues.timestamp.optional(),
  })
  .strict();

const CHECKSUM_LENGTH = 12;

function bindingDigest(binding: CursorBinding): string {
  return createHash("sha256").update(canonicalJson(binding)).digest("hex").slice(0, 16);
}

function checksum(body: string): string {
  return createHash("sha256").update(body).digest("base64url").slice(0, CHECKSUM_LENGTH);
}

/**
 * Opaque to callers (spec 4.2.4): base64url of a small JSON payload plus a checksum, so a
 * tampered or truncated cursor is a clean 400 rather than a silently different position.
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
  if (text.length <= CHECKSUM_LENGTH || checksum(body) !== text.slice(0, CHECKSUM_LENGTH)) throw invalidCursor();
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
