import { z } from "zod";
import { isStorableInstant } from "@/server/db/postgres-values";

/**
 * The ISO 8601 / RFC 3339 forms a timestamp parameter accepts (D154):
 * - a date alone, `2026-11-25`: midnight UTC;
 * - a date and a time, separated by `T`, `t` or a space, with minutes, optional seconds and a
 *   fraction of any length;
 * - an offset `Z`/`z`, `±hh:mm`, `±hhmm` or `±hh`; a space where the `+` was (an unencoded `+`
 *   in a query string arrives as a space) counts as `+`.
 * Only a date and time without an offset is refused: it names no instant.
 */
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?(?:([Zz])|([+\- ])(\d{2})(?::?(\d{2}))?)?$/;

export const TIMESTAMP_FORMS =
  "an ISO 8601 timestamp with an offset, such as 2026-11-25T10:00:00Z, 2026-11-25T10:00:00.123+01:00, 2026-11-25 10:00:00+0100, or a date alone (2026-11-25, midnight UTC)";

export type TimestampBound = "after" | "before";

export type ParsedTimestamp = { ok: true; date: Date } | { ok: false; problem: string };

/**
 * Reads one timestamp. Stored times have millisecond precision: a finer fraction is cut to the
 * millisecond for an `after` bound and rounded up for a `before` bound, so both stay exact
 * ("strictly after 10:00:00.0005" includes 10:00:00.001 and excludes 10:00:00.000).
 */
export function parseTimestamp(value: string, bound: TimestampBound = "after"): ParsedTimestamp {
  const date = DATE.exec(value);
  if (date) {
    const [year, month, day] = [Number(date[1]), Number(date[2]), Number(date[3])];
    if (!validDate(year, month, day)) return { ok: false, problem: "is not a calendar date" };
    return { ok: true, date: new Date(utc(year, month, day, 0, 0, 0, 0)) };
  }
  const found = DATE_TIME.exec(value);
  if (!found) return { ok: false, problem: `must be ${TIMESTAMP_FORMS}` };
  const [, y, mo, d, h, mi, s, fraction, zulu, sign, offsetHours, offsetMinutes] = found;
  const [year, month, day, hour, minute, second] = [y, mo, d, h, mi, s ?? "0"].map(Number) as [number, number, number, number, number, number];
  if (!validDate(year, month, day)) return { ok: false, problem: "is not a calendar date" };
  if (hour > 23 || minute > 59 || second > 59) return { ok: false, problem: "has a time of day out of range (00:00:00 to 23:59:59)" };
  if (!zulu && !sign) {
    return { ok: false, problem: `has a date and time but no offset, so it names no instant; add one, such as Z for UTC (${value.replace(" ", "T")}Z)` };
  }
  let offset = 0;
  if (sign) {
    const [oh, om] = [Number(offsetHours), Number(offsetMinutes ?? "0")];
    if (oh > 23 || om > 59) return { ok: false, problem: "has an offset out of range (at most ±23:59)" };
    offset = (sign === "-" ? -1 : 1) * (oh * 60 + om);
  }
  const digits = fraction ?? "";
  let millis = Number(digits.slice(0, 3).padEnd(3, "0"));
  if (bound === "before" && /[1-9]/.test(digits.slice(3))) millis += 1;
  const epoch = utc(year, month, day, hour, minute, second, millis) - offset * 60_000;
  return { ok: true, date: new Date(epoch) };
}

/** Date.UTC without its quirk of reading years 0–99 as 1900–1999. */
function utc(year: number, month: number, day: number, hour: number, minute: number, second: number, millis: number): number {
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, millis);
  return date.getTime();
}

function validDate(year: number, month: number, day: number): boolean {
  if (month < 1 || month > 12 || day < 1) return false;
  const days = new Date(Date.UTC(2001, month, 0)).getUTCDate();
  if (month === 2) return day <= (year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28);
  return day <= days;
}

/** An ISO 8601 query parameter, as a Date Postgres can compare with. */
export function timestampParam(name: string, bound: TimestampBound = "after") {
  return z
    .string({ error: `${name} must be ${TIMESTAMP_FORMS}` })
    .transform((value, context) => {
      const parsed = parseTimestamp(value, bound);
      if (parsed.ok) return parsed.date;
      context.addIssue({ code: "custom", message: `${name} ${parsed.problem}` });
      return z.NEVER;
    })
    .refine(isStorableInstant, `${name} must not be before 0001-01-01T00:00:00Z`);
}
