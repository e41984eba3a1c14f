import type { KeyRequestFilters } from "./key-usage-view";

type Raw = Record<string, string | string[] | undefined>;
const one = (value: string | string[] | undefined) => (typeof value === "string" && value.trim() ? value.trim() : undefined);

/** A datetime-local value ("2026-11-25T10:00") read as UTC; anything unreadable is dropped. */
function utc(value: string | undefined): string | undefined {
  if (!value) return undefined;
  const date = new Date(/Z|[+-]\d{2}:?\d{2}$/.test(value) ? value : `${value}Z`);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

/** The key page's query string as filters the procedures accept. */
export function keyPageParams(raw: Raw): { filters: KeyRequestFilters; cursor?: string } {
  const range = one(raw.range);
  const status = one(raw.status);
  return {
    filters: {
      range: range === "7d" || range === "30d" ? range : "24h",
      status: status && ["2xx", "4xx", "429", "5xx"].includes(status) ? status : undefined,
      route: one(raw.route),
      from: utc(one(raw.from)),
      to: utc(one(raw.to)),
    },
    cursor: one(raw.cursor),
  };
}

export function keyRequestsQuery(organizationId: string | null, keyId: string, filters: KeyRequestFilters, cursor?: string) {
  return {
    organizationId,
    keyId,
    statusClass: filters.status as "2xx" | "4xx" | "429" | "5xx" | undefined,
    route: filters.route,
    from: filters.from,
    to: filters.to,
    cursor,
  };
}
