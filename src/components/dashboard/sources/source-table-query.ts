import type { SourceTableQuery } from "./sources-list";

export const one = (value: string | string[] | undefined): string | undefined => (Array.isArray(value) ? value[0] : value);

const STATUSES = ["ok", "needs_attention", "error", "never_synced", "stale"];
const KINDS = ["csv", "postgres_table", "crm_object"];
const SORTS = ["name", "-name", "since", "-since"];

/** The table's query from the URL; anything unknown is dropped rather than sent on to fail. */
export function sourceTableQuery(raw: Record<string, string | string[] | undefined>): SourceTableQuery {
  const search = one(raw.search)?.trim().slice(0, 200);
  const status = one(raw.status);
  const kind = one(raw.kind);
  const sort = one(raw.sort);
  return {
    search: search || undefined,
    status: status && STATUSES.includes(status) ? status : undefined,
    kind: kind && KINDS.includes(kind) ? kind : undefined,
    sort: sort && SORTS.includes(sort) ? sort : "name",
  };
}

/** `?limit=` (1–100, default 100): the page size, kept across pages. */
export function pageSize(raw: Record<string, string | string[] | undefined>): number {
  const limit = Number(one(raw.limit));
  return Number.isInteger(limit) && limit >= 1 && limit <= 100 ? limit : 100;
}

export function tableHref(base: string, query: SourceTableQuery, raw: Record<string, string | string[] | undefined>, cursor?: string): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value && !(name === "sort" && value === "name")) params.set(name, value);
  if (one(raw.limit)) params.set("limit", String(pageSize(raw)));
  if (cursor) params.set("cursor", cursor);
  const text = params.toString();
  return text ? `${base}?${text}` : base;
}
