import { AppError } from "@/server/errors/app-error";
import { findUnstorable, NUL, type UnstorableValue } from "@/server/lib/storable-json";

export function unstorableError({ field, message }: UnstorableValue): AppError {
  return new AppError("bad_request", `Invalid request. ${field}: ${message}`, { details: { issues: [{ field, message }] } });
}

/** Query parameters are strings too: a NUL in any of them is refused the same way. */
export function assertNoNulInQuery(url: URL): void {
  for (const [name, value] of url.searchParams) {
    if (value.includes(NUL) || name.includes(NUL)) {
      throw unstorableError({ field: name.replaceAll(NUL, "\\u0000"), message: "must not contain the NUL character (U+0000)" });
    }
  }
}

/** Path parameters (a route handler's ids) are strings too: checked before any query sees them. */
export function assertStorableParams(params: Record<string, string>): void {
  const found = findUnstorable(params);
  if (found) throw unstorableError(found);
}

/**
 * NOTE: the OpenAPI adapter gathers query parameters into a plain object, so one named after an
 * Object.prototype member (`toString`, `constructor`, `__proto__`…) broke it into a 500. No
 * route declares such a name: it is refused with a 400 naming it.
 */
export function assertNoPrototypeKeysInQuery(url: URL): void {
  for (const name of new Set(url.searchParams.keys())) {
    if (name in Object.prototype) {
      throw new AppError("bad_request", `Invalid request. ${name}: is not a query parameter of this endpoint`, {
        details: { issues: [{ field: name, message: "is not a query parameter of this endpoint" }] },
      });
    }
  }
}
