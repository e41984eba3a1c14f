type Raw = Record<string, string | string[] | undefined>;
const one = (value: string | string[] | undefined) => (typeof value === "string" && value.trim() ? value.trim() : undefined);

function utc(value: string | undefined): string | undefined {
  if (!value) return undefined;
  const date = new Date(/Z|[+-]\d{2}:?\d{2}$/.test(value) ? value : `${value}Z`);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

export interface AuditFilterValues {
  actor?: string;
  action?: string;
  target?: string;
  organizationId?: string;
  from?: string;
  to?: string;
}

/** The audit page's (and its CSV export's) query string as the procedure's filters. */
export function auditParams(raw: Raw): { filters: AuditFilterValues; cursor?: string } {
  return {
    filters: {
      actor: one(raw.actor),
      action: one(raw.action),
      target: one(raw.target),
      organizationId: one(raw.organizationId),
      from: utc(one(raw.from)),
      to: utc(one(raw.to)),
    },
    cursor: one(raw.cursor),
  };
}

export function auditQueryString(filters: AuditFilterValues, extra: Record<string, string> = {}): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries({ ...filters, ...extra })) if (value) params.set(name, value);
  return params.toString();
}
