import { z } from "zod";
import { isStorableInstant } from "@/server/db/postgres-values";

/** Timestamps cross the dashboard's wire as ISO strings, the same on the server caller and the browser. */
export const isoString = z.string();
export const iso = (date: Date) => date.toISOString();
export const isoOrNull = (date: Date | null) => (date ? date.toISOString() : null);

/**
 * An instant a dashboard filter takes: ISO 8601 with an offset, within what timestamptz holds
 * (no year 0, which the ISO form allows), so a filter such as `from=0000-01-01T00:00:00Z` is a 400
 * naming the field rather than a failed statement.
 */
export const instantInput = z.iso
  .datetime({ offset: true })
  .refine((value) => isStorableInstant(new Date(value)), { message: "must be a time from year 1 on" });

/** An optional instant filter, as a Date. */
export const optionalInstant = instantInput.optional().transform((value) => (value ? new Date(value) : undefined));
