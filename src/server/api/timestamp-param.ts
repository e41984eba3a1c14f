import { z } from "zod";
import { isStorableInstant } from "@/server/lib/postgres-values";

/** An ISO 8601 query parameter with a time and an offset, as a Date Postgres can compare with. */
export function timestampParam(name: string) {
  return z.iso
    .datetime({ offset: true, error: `${name} must be an ISO 8601 timestamp such as 2026-01-31T00:00:00Z` })
    .transform((value) => new Date(value))
    .refine(isStorableInstant, `${name} must not be before 0001-01-01T00:00:00Z`);
}
