import { env } from "@/env";
import type { Db } from "@/server/db/types";
import { AppError } from "@/server/errors/app-error";
import type { ActingPrincipal } from "../access/acting-principal";

/**
 * Who an alert email may go to (D374): the scope's own people (an organization channel: that
 * organization's members; an instance channel: the instance's users) and any address in a domain
 * the operator allows (GROUNDWORK_ALERT_EMAIL_DOMAINS). Anyone else is a stranger, and the
 * channel is refused when it is created: an admin cannot turn the operator's relay and From
 * address on addresses of their choosing. The instance operator (the CLI, instance owners)
 * chooses freely: the relay is theirs.
 */
function allowedAlertDomains(): string[] {
  return (env().GROUNDWORK_ALERT_EMAIL_DOMAINS ?? "")
    .split(",")
    .map((domain) => domain.trim().toLowerCase())
    .filter(Boolean);
}

function inDomain(address: string, domains: string[]): boolean {
  const domain = address.slice(address.lastIndexOf("@") + 1).toLowerCase();
  return domains.includes(domain);
}

/** The addresses among `to` that are neither the scope's people nor in an allowed domain. */
async function strangersAmong(db: Db, organizationId: string | null, to: string[]): Promise<string[]> {
  const domains = allowedAlertDomains();
  const unknown = to.filter((address) => !inDomain(address, domains));
  if (unknown.length === 0) return [];
  const people = await db.user.findMany({
    where: {
      email: { in: unknown, mode: "insensitive" },
      disabledAt: null,
      ...(organizationId === null ? {} : { memberships: { some: { organizationId } } }),
    },
    select: { email: true },
  });
  const known = new Set(people.map((person) => person.email.toLowerCase()));
  return unknown.filter((address) => !known.has(address.toLowerCase()));
}

/** Refuses an email channel whose recipients include strangers, naming them (400). */
export async function requireAllowedRecipients(db: Db, principal: ActingPrincipal, organizationId: string | null, to: string[]): Promise<void> {
  if (principal.reach === "instance") return;
  const strangers = await strangersAmong(db, organizationId, to);
  if (strangers.length === 0) return;
  const domains = allowedAlertDomains();
  const also = domains.length > 0 ? ` or have an address at ${domains.join(", ")}` : "";
  throw new AppError("bad_request", `Alert emails go only to this organization's members${also}; not a member: ${strangers.join(", ")}.`, {
    details: { field: "to", refused: strangers },
  });
}
