type Raw = Record<string, string | string[] | undefined>;
const one = (value: string | string[] | undefined) => (typeof value === "string" && value.trim() ? value.trim() : undefined);

/** A datetime-local value ("2026-11-25T10:00") read as UTC; anything unreadable is dropped. */
function utc(value: string | undefined): string | undefined {
  if (!value) return undefined;
  const date = new Date(/Z|[+-]\d{2}:?\d{2}$/.test(value) ? value : `${value}Z`);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

const CLASSES = ["2xx", "4xx", "429", "5xx"] as const;
export const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"] as const;
const SURFACES = ["api", "dashboard"] as const;

function choice<T extends string>(value: string | undefined, choices: readonly T[]): T | undefined {
  return value && (choices as readonly string[]).includes(value) ? (value as T) : undefined;
}

/** The request log page's query string (D432): the same names as `requests.list`'s filters. */
export interface RequestLogFilterValues {
  statusClass?: (typeof CLASSES)[number];
  status?: string;
  method?: (typeof METHODS)[number];
  route?: string;
  apiKeyId?: string;
  surface?: (typeof SURFACES)[number];
  from?: string;
  to?: string;
}

export function requestLogParams(raw: Raw): { filters: RequestLogFilterValues; cursor?: string } {
  const status = one(raw.status);
  return {
    filters: {
      statusClass: choice(one(raw.statusClass), CLASSES),
      status: status && /^[1-5]\d\d$/.test(status) ? status : undefined,
      method: choice(one(raw.method)?.toUpperCase(), METHODS),
      route: one(raw.route),
      apiKeyId: one(raw.apiKeyId),
      surface: choice(one(raw.surface), SURFACES),
      from: utc(one(raw.from)),
      to: utc(one(raw.to)),
    },
    cursor: one(raw.cursor),
  };
}

/** The procedure's input for these filters. */
export function requestLogQuery(filters: RequestLogFilterValues, organizationId: string | undefined, cursor: string | undefined) {
  return { ...filters, status: filters.status ? Number(filters.status) : undefined, organizationId, cursor, limit: 50 };
}

export function requestLogHref(basePath: string, filters: RequestLogFilterValues, extra: Record<string, string> = {}): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries({ ...filters, ...extra })) if (value) params.set(name, value);
  const query = params.toString();
  return query ? `${basePath}?${query}` : basePath;
}
