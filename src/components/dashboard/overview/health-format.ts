/** How the health figures read (organizations.health's output, whose shapes are the domain's own types). */
import type { OrganizationHealth, RequestHealth, SourceHealth } from "@/server/modules/overview/organization-health";

// The shapes organizations.health returns (numbers only, so the same in the browser).
export type SourcesHealth = SourceHealth;
export type RequestsHealth = RequestHealth;
export type HealthFigures = Omit<OrganizationHealth, "organizationId">;

/** The sources table's state filter (its `status` URL parameter). */
export function sourcesHref(organizationId: string, status?: "error" | "needs_attention" | "stale" | "ok" | "never_synced"): string {
  const base = `/dashboard/organizations/${organizationId}/sources`;
  return status ? `${base}?status=${status}` : base;
}

/** "12.5 %", "0 %", or "—" with no requests to rate. */
export function errorRateText(requests: RequestsHealth | null): string {
  if (!requests || requests.errorRate === null) return "—";
  const percent = requests.errorRate * 100;
  return `${percent === 0 || percent >= 10 ? percent.toFixed(0) : percent.toFixed(1)} %`;
}

export function errorSplitText(requests: RequestsHealth): string {
  return `4xx ${requests.byClass["4xx"]} · 429 ${requests.byClass["429"]} · 5xx ${requests.byClass["5xx"]}`;
}

export const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString("en")} ${n === 1 ? one : many}`;

/** "11:00 UTC" */
function utcHour(iso: string): string {
  return `${iso.slice(11, 16)} UTC`;
}

/** "19:00 UTC yesterday", or "00:00 UTC today" when the window starts on the current UTC day (in its last hour). */
export function windowStartText(since: string, currentHourSince: string): string {
  return `${utcHour(since)} ${since.slice(0, 10) === currentHourSince.slice(0, 10) ? "today" : "yesterday"}`;
}
