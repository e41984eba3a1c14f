import { AppError } from "@/server/errors/app-error";
import type { ActorType } from "../audit/record-audit-event";

/**
 * Who a domain call acts for. Every domain function that touches an organization's data takes
 * one and treats anything outside its reach as absent (not_found), so a caller that forgets a
 * check (a dashboard page, a new route) cannot reach another tenant's data by id.
 */
export interface ActingPrincipal {
  /** Recorded on audit events. */
  actor: { type: ActorType; id?: string | null };
  /**
   * "instance": every organization (instance owners, instance keys, the CLI operator, the sync
   * worker). Otherwise exactly one organization: there is no "empty means all".
   */
  reach: "instance" | { organizationId: string };
}

export const CLI_OPERATOR: ActingPrincipal = { actor: { type: "cli" }, reach: "instance" };
export const SYSTEM: ActingPrincipal = { actor: { type: "system" }, reach: "instance" };

/** A principal bound to one organization; an empty id is a bug, never "all organizations". */
export function actingInOrganization(organizationId: string, actor: ActingPrincipal["actor"]): ActingPrincipal {
  if (typeof organizationId !== "string" || organizationId === "") throw new Error("actingInOrganization: an organization id is required");
  return { actor, reach: { organizationId } };
}

function reaches(principal: ActingPrincipal, organizationId: string): boolean {
  return principal.reach === "instance" || principal.reach.organizationId === organizationId;
}

/** A Prisma `where` fragment limiting rows to the principal's reach. */
export function withinReach(principal: ActingPrincipal): { organizationId?: string } {
  return principal.reach === "instance" ? {} : { organizationId: principal.reach.organizationId };
}

/** Refuses an organization outside the principal's reach as if it did not exist. */
export function requireReach(principal: ActingPrincipal, organizationId: string): void {
  if (!reaches(principal, organizationId)) throw new AppError("not_found", `No organization ${organizationId}.`);
}

/** An API key acts for its organization, or for the instance when it is instance-scoped. */
export function actingForApiKey(key: { keyId: string; organizationId: string | null }): ActingPrincipal {
  const actor = { type: "api_key" as const, id: key.keyId };
  return key.organizationId === null ? { actor, reach: "instance" } : actingInOrganization(key.organizationId, actor);
}
