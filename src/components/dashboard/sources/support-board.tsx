import { ArrowDown, ArrowUp } from "lucide-react";
import Link from "next/link";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/card";
import { CursorPager } from "@/components/ui/cursor-pager";
import { Label, Select } from "@/components/ui/input";
import { RelativeTime } from "@/components/ui/relative-time";
import { Table, TBody, TD, TH, THead, TR } from "@/components/ui/table";
import { OrganizationPicker } from "../organization-picker";
import { KIND_LABELS, kindLabel } from "./format";
import { SourceStateBadge, StaleBadge } from "./status-badge";
import type { SourceSummary } from "./types";

interface Filters {
  organizationId: string;
  kind: string;
  sort: "since" | "-since";
}

function query(filters: Filters, change: Partial<Filters>, cursor?: string): string {
  const next = { ...filters, ...change };
  const params = new URLSearchParams();
  if (next.organizationId) params.set("org", next.organizationId);
  if (next.kind) params.set("kind", next.kind);
  if (next.sort !== "since") params.set("sort", next.sort);
  if (cursor) params.set("cursor", cursor);
  const text = params.toString();
  return text ? `?${text}` : "?";
}

function why(s: SourceSummary): string {
  if (s.state === "needs_attention") return `${s.declinedDeletions} deletions held back for review`;
  if (s.state === "error") return s.syncError ?? "the last pass failed";
  return "no completed pass for more than 3 intervals";
}

/** A plain GET form and links: the board's state lives in its URL, so it can be shared and reloaded. */
export function SupportBoard({
  items,
  organization,
  organizationProblem = null,
  filters,
  paging = { nextCursor: null, paged: false },
}: {
  items: SourceSummary[];
  /** The organization filter's organization, its name read by id (null: no filter, or not found). */
  organization: { id: string; name: string } | null;
  /** Why the filter's organization could not be read (an unknown or unreadable id). */
  organizationProblem?: { message: string; requestId: string } | null;
  filters: Filters;
  /** A page of 100; the links keep the filters (the cursor is bound to them). */
  paging?: { nextCursor: string | null; paged: boolean };
}) {
  const longestFirst = filters.sort === "since";
  return (
    <div className="space-y-4">
      {organizationProblem ? (
        <Alert tone="warning" title="The organization filter names no organization you can see" requestId={organizationProblem.requestId}>
          {organizationProblem.message} Choose another organization, or{" "}
          <Link href={query(filters, { organizationId: "" })} className="underline">
            show every organization
          </Link>
          .
        </Alert>
      ) : null}
      <form method="get" className="flex flex-col gap-3 rounded-lg border border-slate-200 bg-white p-4 sm:flex-row sm:items-end" aria-label="Filter the board">
        <div className="min-w-0 flex-1">
          <OrganizationPicker
            key={organization?.id ?? ""}
            id="board-org"
            name="org"
            label="Organization"
            noneLabel="All organizations"
            initial={organization}
          />
        </div>
        <div className="space-y-1.5 sm:w-48">
          <Label htmlFor="board-kind">Kind</Label>
          <Select id="board-kind" name="kind" defaultValue={filters.kind}>
            <option value="">All kinds</option>
            {Object.entries(KIND_LABELS).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </Select>
        </div>
        {filters.sort !== "since" ? <input type="hidden" name="sort" value={filters.sort} /> : null}
        <Button type="submit" variant="outline">
          Apply
        </Button>
      </form>
      {items.length === 0 ? (
        <EmptyState title="Nothing needs attention">No source matching these filters is in error, waiting for a deletion review, or stale.</EmptyState>
      ) : (
        <>
          <ul className="space-y-2 sm:hidden" aria-label="Sources needing attention">
            {items.map((s) => (
              <li key={s.id} data-testid="board-card" className="rounded-lg border border-slate-200 bg-white p-3">
                <div className="flex flex-wrap items-center gap-2">
                  <Link href={`/dashboard/organizations/${s.organizationId}/sources/${s.id}`} className="font-medium text-blue-800 hover:underline">
                    {s.name}
                  </Link>
                  <SourceStateBadge state={s.state} />
                  {s.stale ? <StaleBadge /> : null}
                </div>
                <p className="mt-0.5 text-xs text-slate-500">
                  {s.organizationName} · {kindLabel(s.kind)}
                </p>
                <p className="mt-2 text-sm text-slate-800">{why(s)}</p>
                <p className="mt-1 text-xs text-slate-500">
                  In trouble since <RelativeTime iso={s.since} /> · last completed <RelativeTime iso={s.lastSyncedAt} />
                </p>
              </li>
            ))}
          </ul>
          <Table aria-label="Sources needing attention" wrapperClassName="hidden sm:block">
            <THead>
              <TR>
                <TH>Source</TH>
                <TH>Status</TH>
                <TH aria-sort={longestFirst ? "ascending" : "descending"}>
                  <Link href={query(filters, { sort: longestFirst ? "-since" : "since" })} className="inline-flex items-center gap-1 hover:text-slate-900">
                    In trouble since {longestFirst ? <ArrowDown className="size-3" aria-hidden /> : <ArrowUp className="size-3" aria-hidden />}
                    <span className="sr-only">{longestFirst ? "(longest first; select for newest first)" : "(newest first; select for longest first)"}</span>
                  </Link>
                </TH>
                <TH>Last completed</TH>
                <TH>Why</TH>
              </TR>
            </THead>
            <TBody>
              {items.map((s) => (
                <TR key={s.id} data-testid="board-row">
                  <TD>
                    <Link href={`/dashboard/organizations/${s.organizationId}/sources/${s.id}`} className="font-medium text-blue-800 hover:underline">
                      {s.name}
                    </Link>
                    <p className="text-xs text-slate-500">
                      {s.organizationName} · {kindLabel(s.kind)}
                    </p>
                  </TD>
                  <TD>
                    <div className="flex flex-wrap gap-1">
                      <SourceStateBadge state={s.state} />
                      {s.stale ? <StaleBadge /> : null}
                    </div>
                  </TD>
                  <TD className="whitespace-nowrap">
                    <RelativeTime iso={s.since} />
                  </TD>
                  <TD className="whitespace-nowrap">
                    <RelativeTime iso={s.lastSyncedAt} />
                  </TD>
                  <TD className="max-w-sm text-xs text-slate-700">{why(s)}</TD>
                </TR>
              ))}
            </TBody>
          </Table>
        </>
      )}
      <CursorPager
        label="More sources on the board"
        firstHref={paging.paged ? query(filters, {}) : null}
        nextHref={paging.nextCursor ? query(filters, {}, paging.nextCursor) : null}
        nextLabel="Next 100 →"
        nextTestId="board-next"
      />
    </div>
  );
}
