import { SCOPE_RESOURCES } from "@/lib/api-key-scopes";
import { AppError } from "@/server/errors/app-error";

const SCOPE_PATTERN = new RegExp(`^(?:\\*:\\*|(?:${SCOPE_RESOURCES.join("|")}):(?:read|write|\\*))$`);

function isValidScope(scope: string): boolean {
  return SCOPE_PATTERN.test(scope);
}

/** Parses `a:read,b:write` (or an array) into a sorted, de-duplicated list; rejects unknown scopes. */
export function parseScopes(input: string | string[]): string[] {
  const list = (Array.isArray(input) ? input : input.split(",")).map((scope) => scope.trim()).filter((scope) => scope !== "");
  if (list.length === 0) throw new AppError("bad_request", "At least one scope is required.");
  const invalid = list.filter((scope) => !isValidScope(scope));
  if (invalid.length > 0) {
    throw new AppError(
      "bad_request",
      `Invalid scope ${invalid.map((s) => `"${s}"`).join(", ")}: use <resource>:<read|write|*> with resource one of ${SCOPE_RESOURCES.join(", ")}, or *:*.`,
    );
  }
  return [...new Set(list)].sort();
}

/**
 * True when the key's scopes grant `required` (`<resource>:<read|write>`).
 * `write` does NOT imply `read` (docs/decisions.md): a write-only integration stays write-only.
 */
export function grantsScope(granted: readonly string[], required: string): boolean {
  const [resource] = required.split(":");
  return granted.some((scope) => scope === "*:*" || scope === required || scope === `${resource}:*`);
}
