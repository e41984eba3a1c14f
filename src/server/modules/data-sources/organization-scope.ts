import { AppError } from "@/server/errors/app-error";

/**
 * The organizations a caller may read across: every one (instance owner, support) or the ones
 * they belong to. Functions about one organization take its id instead; the transport decides
 * which of the two a principal gets.
 */
export type OrganizationScope = { all: true } | { all: false; organizationIds: readonly string[] };

export const ALL_ORGANIZATIONS: OrganizationScope = { all: true };

export function organizationsScope(organizationIds: readonly string[]): OrganizationScope {
  return { all: false, organizationIds };
}

/** An organization outside the scope answers like one that does not exist. */
export function requireInScope(scope: OrganizationScope, organizationId: string): void {
  if (!scope.all && !scope.organizationIds.includes(organizationId)) throw new AppError("not_found", `No organization ${organizationId}.`);
}
