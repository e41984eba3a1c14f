import { withinReach, type ActingPrincipal } from "@/server/modules/access/acting-principal";

/**
 * Which keys an acting principal reaches, like every other row of the domain: an organization's
 * principal its organization's keys, an instance principal (instance owners, the CLI operator)
 * every key. A key outside the reach reads as absent.
 */
export function keyWithinReach(key: { organizationId: string | null }, principal: ActingPrincipal): boolean {
  return principal.reach === "instance" || key.organizationId === principal.reach.organizationId;
}

/**
 * The `where` of a key listing: the principal's reach AND the keys asked for (one organization's,
 * or with `organizationId: null` the instance's own keys and the retired keys of deleted
 * organizations, D14). Asking for keys outside the reach lists none.
 */
export function keyListWhere(principal: ActingPrincipal, wanted: { organizationId?: string | null }) {
  return { AND: [withinReach(principal), wanted.organizationId === undefined ? {} : { organizationId: wanted.organizationId }] };
}
