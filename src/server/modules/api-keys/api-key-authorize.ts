import { AppError } from "@/server/errors/app-error";
import type { ApiKeyPrincipal } from "./principal";
import { grantsScope } from "./scopes";

/** 403 naming the scope the key lacks (spec 5.6). */
export function requireScope(principal: ApiKeyPrincipal, scope: string): void {
  if (grantsScope(principal.scopes, scope)) return;
  throw new AppError("forbidden", `This API key lacks the required scope ${scope}.`, {
    details: { required_scope: scope },
  });
}

/** Instance-level surfaces need an instance-scoped key (spec 5.8). */
export function requireInstanceKey(principal: ApiKeyPrincipal): void {
  if (principal.organizationId === null) return;
  throw new AppError("forbidden", "This operation needs an instance-scoped API key; this key is bound to an organization.", {
    details: { binding: "organization", organization_id: principal.organizationId },
  });
}

/** An organization-scoped key may address only its own organization (spec 5.7). */
export function requireOrganizationAccess(principal: ApiKeyPrincipal, organizationId: string): void {
  if (principal.organizationId === null || principal.organizationId === organizationId) return;
  throw new AppError("forbidden", `This API key is bound to organization ${principal.organizationId} and cannot address organization ${organizationId}.`, {
    details: { binding: "organization", organization_id: principal.organizationId },
  });
}
