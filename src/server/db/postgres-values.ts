/**
 * What Postgres can hold, for values checked before they reach SQL (request parameters, cursors).
 * NOTE: each of these, left to the database, is a 500 instead of the caller's 400.
 */

/** timestamptz has no year 0: an instant before 0001-01-01T00:00:00Z (in UTC) is refused. */
export function isStorableInstant(date: Date): boolean {
  return !Number.isNaN(date.getTime()) && date.getUTCFullYear() >= 1;
}

/**
 * float8 input that neither overflows (`1e999`) nor underflows to zero (`1e-400`); subnormals
 * and the special values Infinity, -Infinity and NaN are accepted, as Postgres accepts them.
 */
export function isFloat8Text(text: string): boolean {
  if (/^(?:-?Infinity|NaN)$/.test(text)) return true;
  const value = Number(text);
  if (!Number.isFinite(value)) return false;
  const mantissa = text.split(/e/i)[0] ?? "";
  return value !== 0 || !/[1-9]/.test(mantissa);
}
