import { AppError } from "@/server/errors/app-error";
import { requireInstanceKey } from "@/server/modules/api-keys/api-key-authorize";
import type { ApiKeyPrincipal } from "@/server/modules/api-keys/principal";

/**
 * `/users` and `/instance` exist and are instance-scoped (spec 4.3, 5.8), but the spec shows none
 * of their operations, so none is invented (D158). A request there is still treated as one to an
 * authenticated, instance-level endpoint: no or a bad key is a 401 (with `WWW-Authenticate`), an
 * organization-scoped key a 403, and an instance-scoped key learns there is no such operation (404).
 */
export function isInstanceSurface(relativePath: string): boolean {
  return /^\/(users|instance)(\/|$)/.test(relativePath);
}

/** After authenticate (401, 429): the 403 for an organization key, else the 404. */
export function refuseInstanceSurface(principal: ApiKeyPrincipal, method: string, path: string): never {
  requireInstanceKey(principal);
  throw new AppError("not_found", `No operation ${method} ${path}: the /users and /instance surfaces have no operation in this version of the API.`);
}
