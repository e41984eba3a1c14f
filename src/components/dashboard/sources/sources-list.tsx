import Link from "next/link";
import { EmptyState } from "@/components/ui/card";
import { Input, Select } from "@/components/ui/input";
import { RelativeTime } from "@/components/ui/relative-time";
import { Table, TBody, TD, TH, THead, TR } from "@/components/ui/table";
import { count, KIND_LABELS, kindLabel } from "./format";
import { NextPass } from "./next-pass";
import { SourceProblem } from "./source-problem";
import { PausedBadge, SourceStateBadge, StaleBadge } from "./status-badge";
import type { SourceSummary } from "./types";

export interface SourceTableQuery {
  search?: string;
  status?: string;
  kind?: string;
  sort: string;
}

const STATES = [
  { value: "ok", label: "OK" },
  { value: "needs_attention", label: "Needs attention" },
  { value: "error", label: "Error" },
  { value: "never_synced", label: "Never synced" },
  { value: "stale", label: "Stale (overdue)" },
];
const SORTS = [
  { value: "name", label: "Name A–Z" },
  { value: "-name", label: "Name Z–A" },
  { value: "since", label: "Longest in its state" },
  { value: "-since", label: "Most recent change" },
];

/**
 * The sources table (issue 44, D486): search by name, filter by state and kind, sort, a page at a
 * time by cursor. A plain GET form, so every view is a link and works without script.
 */
export function SourcesList({
  organizationId,
  sources,
  canManage,
  query,
}: {
  organizationId: string;
  sources: SourceSummary[];
  canManage: boolean;
  query: SourceTableQuery;
}) {
  const base = `/dashboard/organizations/${organizationId}/sources`;
  const filtered = Boolean(query.search || query.status || query.kind);
  return (
    <div className="space-y-3">
      <form method="get" action={base} role="search" aria-label="Find sources" className="grid grid-cols-1 gap-2 sm:grid-cols-2 lg:grid-cols-5 lg:items-end">
        <label className="text-xs font-medium text-slate-600 lg:col-span-2">
          Search by name
          <Input type="search" name="search" defaultValue={query.search ?? ""} placeholder="e.g. sites" className="mt-1" />
        </label>
        <div className="text-xs font-medium text-slate-600">
          <label htmlFor="sources-status">State</label>
          <Select id="sources-status" name="status" defaultValue={query.status ?? ""} className="mt-1">
            <option value="">Any state</option>
            {STATES.map((s) => (
              <option key={s.value} value={s.value}>
                {s.label}
              </option>
            ))}
          </Select>
        </div>
        <div className="text-xs font-medium text-slate-600">
          <label htmlFor="sources-kind">Kind</label>
          <Select id="sources-kind" name="kind" defaultValue={query.kind ?? ""} className="mt-1">
            <option value="">Any kind</option>
            {Object.entries(KIND_LABELS).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </Select>
        </div>
        <div className="text-xs font-medium text-slate-600">
          <label htmlFor="sources-sort">Sort</label>
          <Select id="sources-sort" name="sort" defaultValue={query.sort} className="mt-1">
            {SORTS.map((s) => (
              <option key={s.value} value={s.value}>
                {s.label}
              </option>
            ))}
          </Select>
        </div>
        <div className="flex gap-2 sm:col-span-2 lg:col-span-5">
          <button
            type="submit"
            className="h-9 rounded-md bg-slate-900 px-4 text-sm font-medium text-white hover:bg-slate-800 focus-visible:ring-2 focus-visible:ring-blue-600 focus-visible:outline-none"
          >
            Apply
          </button>
          {filtered || query.sort !== "name" ? (
            <Link href={base} className="inline-flex h-9 items-center px-2 text-sm text-blue-700 underline">
              Clear
            </Link>
          ) : null}
        </div>
      </form>
      {sources.length === 0 ? (
        filtered ? (
          <EmptyState title="No sources match">Clear a filter or change the search to see more.</EmptyState>
        ) : (
          <EmptyState title="No data sources yet">
            {canManage
              ? "Create one with “New source”: upload a CSV, or mirror a Postgres table or a CRM object on a schedule. Forms then use its rows as choices."
              : "An admin of this organization (or an instance owner) can create one: a CSV upload, a Postgres table or a CRM object."}
          </EmptyState>
        )
      ) : (
        <Table aria-label="Data sources">
          <THead>
            <TR>
              <TH>Name</TH>
              <TH>Kind</TH>
              <TH>State</TH>
              <TH>Last completed</TH>
              <TH>Next pass</TH>
              <TH className="text-right">Live rows</TH>
            </TR>
          </THead>
          <TBody>
            {sources.map((source) => (
              <TR key={source.id} data-testid="source-row" data-source-id={source.id}>
                <TD className="max-w-96 min-w-48">
                  <Link href={`${base}/${source.id}`} className="font-medium break-words text-blue-800 hover:underline" data-testid="source-name">
                    {source.name}
                  </Link>
                  <SourceProblem source={source} canApprove={canManage} />
                </TD>
                <TD className="whitespace-nowrap">{kindLabel(source.kind)}</TD>
                <TD>
                  <span className="flex flex-wrap items-center gap-1">
                    <SourceStateBadge state={source.state} />
                    {source.pausedAt ? <PausedBadge /> : null}
                    {source.stale ? <StaleBadge /> : null}
                    {source.running ? <span className="text-xs text-blue-700">syncing…</span> : null}
                  </span>
                </TD>
                <TD className="whitespace-nowrap">
                  <RelativeTime iso={source.lastSyncedAt} />
                </TD>
                <TD className="whitespace-nowrap">
                  <NextPass source={source} />
                </TD>
                <TD className="text-right whitespace-nowrap" data-testid="live-rows">
                  {count(source.liveRows)}
                </TD>
              </TR>
            ))}
          </TBody>
        </Table>
      )}
    </div>
  );
}
