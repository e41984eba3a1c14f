import { AppError } from "@/server/errors/app-error";
import { CLI_OPERATOR } from "@/server/modules/access/acting-principal";
import { listAllOrganizations } from "@/server/modules/organizations/list-organizations";
import { healthReachForPrincipal, organizationHealth, type OrganizationHealth, type RequestHealth } from "@/server/modules/overview/organization-health";
import type { CliCommand } from "../command";

/** `org health`: the Overview's health, from the same domain function, for every organization or one. */
export const orgHealthCommand: CliCommand = {
  usage: "org health [--org ORG_ID]",
  summary: "Sources by state, API requests and error rate over 24 h, records today (UTC) and open alerts, per organization",
  options: { org: { type: "string" } },
  async run(ctx, args) {
    const only = typeof args.values.org === "string" ? args.values.org : undefined;
    const organizations = (await listAllOrganizations(ctx.db)).filter((o) => only === undefined || o.id === only);
    if (only !== undefined && organizations.length === 0) throw new AppError("not_found", `No organization ${only}.`);
    const summary = await organizationHealth(
      ctx.db,
      healthReachForPrincipal(CLI_OPERATOR),
      organizations.map((o) => o.id),
    );
    const names = new Map(organizations.map((o) => [o.id, o.name]));
    const { window, totals } = summary;
    ctx.print(
      {
        as_of: window.asOf.toISOString(),
        requests_since: window.requestsSince.toISOString(),
        current_hour_since: window.currentHourSince.toISOString(),
        records_since: window.recordsSince.toISOString(),
        totals: { organizations: totals.organizations, ...healthJson(totals) },
        organizations: summary.items.map((item) => ({ id: item.organizationId, name: names.get(item.organizationId) ?? null, ...healthJson(item) })),
      },
      [
        `API requests since ${window.requestsSince.toISOString()} (the current hour so far included); records since ${window.recordsSince.toISOString()} (UTC day)`,
        ...summary.items.map((item) => `${item.organizationId}  ${names.get(item.organizationId) ?? ""}  ${describe(item)}`),
      ].join("\n"),
    );
  },
};

function healthJson(health: Omit<OrganizationHealth, "organizationId">): Record<string, unknown> {
  const s = health.sources;
  return {
    sources: {
      total: s.total,
      ok: s.ok,
      needs_attention: s.needsAttention,
      error: s.error,
      never_synced: s.neverSynced,
      stale: s.stale,
      paused: s.paused,
      in_trouble: s.inTrouble,
    },
    requests: health.requests && {
      total: health.requests.total,
      by_class: health.requests.byClass,
      errors: health.requests.errors,
      error_rate: health.requests.errorRate,
    },
    records_today: health.recordsToday,
    open_alerts: health.openAlerts,
  };
}

function describe(item: OrganizationHealth): string {
  return `sources ${item.sources.total} (${item.sources.inTrouble} in trouble) · requests ${rate(item.requests)} · records today ${item.recordsToday} · open alerts ${item.openAlerts}`;
}

function rate(requests: RequestHealth | null): string {
  if (!requests) return "—";
  return requests.errorRate === null ? "0" : `${requests.total} (${(requests.errorRate * 100).toFixed(1)} % errors)`;
}
