import { AppError } from "@/server/errors/app-error";

const NUL = "\u0000";

/**
 * The path (`field_values.note`, `tags.2`) of the first string or key holding U+0000, or null.
 * NOTE: Postgres can store that character neither in text nor in jsonb; left to the database it
 * is a 500, so the pipeline answers a 400 naming the field before any procedure runs.
 */
export function findNul(value: unknown, path: string[] = []): string | null {
  if (typeof value === "string") return value.includes(NUL) ? path.join(".") || "(body)" : null;
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const found = findNul(item, [...path, String(index)]);
      if (found !== null) return found;
    }
    return null;
  }
  if (value !== null && typeof value === "object") {
    for (const [key, item] of Object.entries(value)) {
      if (key.includes(NUL)) return [...path, key.replaceAll(NUL, "\\u0000")].join(".");
      const found = findNul(item, [...path, key]);
      if (found !== null) return found;
    }
  }
  return null;
}

export function nulError(field: string): AppError {
  const message = "must not contain the NUL character (U+0000)";
  return new AppError("bad_request", `Invalid request. ${field}: ${message}`, { details: { issues: [{ field, message }] } });
}

/** Query parameters are strings too: a NUL in any of them is refused the same way. */
export function assertNoNulInQuery(url: URL): void {
  for (const [name, value] of url.searchParams) {
    if (value.includes(NUL) || name.includes(NUL)) throw nulError(name.replaceAll(NUL, "\\u0000"));
  }
}
