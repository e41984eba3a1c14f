import { lookup } from "node:dns/promises";
import { isIP } from "node:net";
import { env } from "@/env";
import { serviceDatabaseUrl } from "@/server/db/service-database";
import { failure, success, type Result } from "./result";
import { restrictedRange } from "./address-ranges";

/** What an operator allows connectors to reach. */
export interface TargetPolicy {
  /** GROUNDWORK_ALLOW_PRIVATE_TARGETS=on: loopback, private and link-local addresses too. */
  allowPrivate: boolean;
  /** Host name resolution; tests may replace it to play a rebinding DNS. */
  resolve?: (host: string) => Promise<string[]>;
}

export function operatorTargetPolicy(): TargetPolicy {
  return { allowPrivate: env().GROUNDWORK_ALLOW_PRIVATE_TARGETS === "on" };
}

/** The operator's policy and this process's own database. */
export function defaultConnectorTargets(): { policy: TargetPolicy; serviceDatabaseUrl: () => string | undefined } {
  return { policy: operatorTargetPolicy(), serviceDatabaseUrl };
}

const PRIVATE_TARGETS_HINT = "the operator has not allowed private targets (GROUNDWORK_ALLOW_PRIVATE_TARGETS)";

async function systemResolve(host: string): Promise<string[]> {
  const answers = await lookup(host, { all: true, verbatim: true });
  return answers.map((answer) => answer.address);
}

/** Every address a host name stands for (an IP literal stands for itself). */
export async function resolveHost(host: string, policy: TargetPolicy): Promise<Result<string[]>> {
  const bare = host.replace(/^\[(.*)\]$/, "$1");
  if (isIP(bare)) return success([bare]);
  try {
    const addresses = await (policy.resolve ?? systemResolve)(bare);
    if (addresses.length === 0) return failure(`the host ${host} could not be resolved`);
    return success(addresses);
  } catch {
    return failure(`the host ${host} could not be resolved`);
  }
}

/**
 * The addresses of `host`, every one of them checked against the policy. One restricted
 * address refuses the host: a name that also points inward could be steered there.
 */
export async function checkedAddresses(host: string, policy: TargetPolicy): Promise<Result<string[]>> {
  const resolved = await resolveHost(host, policy);
  if (!resolved.ok) return resolved;
  if (policy.allowPrivate) return resolved;
  for (const address of resolved.value) {
    const range = restrictedRange(address);
    if (range === null) continue;
    const shown = address === host.replace(/^\[(.*)\]$/, "$1") ? `the host ${host}` : `the host ${host} (${address})`;
    return failure(`${shown} is ${/^[aeiou]/.test(range) ? "an" : "a"} ${range} address; ${PRIVATE_TARGETS_HINT}`);
  }
  return resolved;
}
