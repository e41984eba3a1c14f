"use client";

import { Download, Search } from "lucide-react";
import { useEffect, useState } from "react";
import { cellDisplay, JsonDrawer, type DrawerField } from "@/components/dashboard/tables/json-drawer";
import { reverseSort, useEndsPager } from "@/components/dashboard/tables/ends-pager";
import { PagerNav } from "@/components/dashboard/tables/pager-nav";
import { Alert } from "@/components/ui/alert";
import { Button, buttonVariants } from "@/components/ui/button";
import { Input, Label, Select } from "@/components/ui/input";
import { RelativeTime } from "@/components/ui/relative-time";
import { Table, TBody, TD, TH, THead, TR } from "@/components/ui/table";
import { describeError, trpc, type ShownError } from "@/lib/trpc-client";

type RowsPage = Awaited<ReturnType<typeof trpc.sources.rows.query>>;
type Row = RowsPage["items"][number];
type RowSort = "display_order" | "-display_order" | "updated_at" | "-updated_at";

/** The orders GET …/rows serves, in people's words. */
const SORTS: Array<{ value: RowSort; label: string }> = [
  { value: "display_order", label: "Source order" },
  { value: "-display_order", label: "Source order, reversed" },
  { value: "-updated_at", label: "Recently changed first" },
  { value: "updated_at", label: "Least recently changed first" },
];

/**
 * A source's rows as a table (D450): one column per column of the source, in the source's own
 * order, 25 a page, in any of the API's orders, filtered by an exact external id and searchable
 * (external id or data), first/last page at a click, each row opening a drawer with its JSON.
 */
export function RowsView({ organizationId, sourceId, stamp = "" }: { organizationId: string; sourceId: string; stamp?: string }) {
  const [draft, setDraft] = useState({ search: "", externalId: "" });
  const [applied, setApplied] = useState({ search: "", externalId: "" });
  const [includeDeleted, setIncludeDeleted] = useState(false);
  const [sort, setSort] = useState<RowSort>("display_order");
  const pager = useEndsPager();
  const [page, setPage] = useState<RowsPage | null>(null);
  const [error, setError] = useState<ShownError | null>(null);
  const [open, setOpen] = useState<Row | null>(null);
  const { cursor, reversed } = pager;

  useEffect(() => {
    let current = true;
    trpc.sources.rows
      .query({
        organizationId,
        sourceId,
        search: applied.search || undefined,
        externalId: applied.externalId || undefined,
        sort: reversed ? reverseSort(sort) : sort,
        includeDeleted,
        cursor,
      })
      .then(
        (next) => {
          if (!current) return;
          setPage(reversed ? { ...next, items: [...next.items].reverse() } : next);
          setError(null);
        },
        (caught: unknown) => current && setError(describeError(caught)),
      );
    return () => {
      current = false;
    };
  }, [organizationId, sourceId, applied, includeDeleted, sort, cursor, reversed, stamp]);

  const columns = page
    ? page.columns.length > 0
      ? page.columns
      : [...new Set(page.items.flatMap((row) => (row.data && typeof row.data === "object" ? Object.keys(row.data) : [])))]
    : [];
  const filtered = applied.search !== "" || applied.externalId !== "";
  const exportHref = `/dashboard/organizations/${organizationId}/sources/${sourceId}/export${includeDeleted ? "?tombstones=1" : ""}`;
  const nextCursor = page?.nextCursor ?? null;
  const byUpdated = sort.endsWith("updated_at");
  const ariaSort = sort.startsWith("-") ? "descending" : "ascending";

  return (
    <div className="space-y-3">
      <form
        aria-label="Row filters"
        className="grid gap-3 rounded-lg border border-slate-200 bg-white p-3 sm:grid-cols-2 lg:grid-cols-[2fr_1fr_1fr_auto] lg:items-end"
        onSubmit={(event) => {
          event.preventDefault();
          setApplied({ search: draft.search.trim(), externalId: draft.externalId.trim() });
          pager.first();
        }}
      >
        <div className="space-y-1">
          <Label htmlFor="rows-search" className="text-xs">
            Search rows
          </Label>
          <div className="relative">
            <Search className="pointer-events-none absolute top-2.5 left-2.5 size-4 text-slate-400" aria-hidden />
            <Input
              id="rows-search"
              placeholder="Any part of the external id or the data"
              value={draft.search}
              onChange={(e) => setDraft({ ...draft, search: e.target.value })}
              className="pl-8"
            />
          </div>
        </div>
        <div className="space-y-1">
          <Label htmlFor="rows-external-id" className="text-xs">
            External id (exact)
          </Label>
          <Input id="rows-external-id" value={draft.externalId} onChange={(e) => setDraft({ ...draft, externalId: e.target.value })} />
        </div>
        <div className="space-y-1">
          <Label htmlFor="rows-sort" className="text-xs">
            Order
          </Label>
          <Select
            id="rows-sort"
            value={sort}
            onChange={(e) => {
              setSort(e.target.value as RowSort);
              pager.first();
            }}
          >
            {SORTS.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </Select>
        </div>
        <div className="flex flex-wrap items-center gap-3">
          <Button type="submit" variant="outline">
            Search
          </Button>
          <label className="flex items-center gap-2 text-sm text-slate-700">
            <input
              type="checkbox"
              checked={includeDeleted}
              onChange={(e) => {
                setIncludeDeleted(e.target.checked);
                pager.first();
              }}
            />
            Include tombstones
          </label>
        </div>
      </form>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="text-xs text-slate-600">
          The search matches any part of a row&apos;s external id or data, ignoring case (a dashboard search, not part of GET …/rows); the external id filter
          matches exactly, as <code>?external_id=</code> does.
        </p>
        <a href={exportHref} download className={buttonVariants({ variant: "outline", size: "sm" })} data-testid="rows-export">
          <Download aria-hidden /> Export CSV{includeDeleted ? " (with tombstones)" : ""}
        </a>
      </div>
      {error ? (
        <Alert title="Rows could not be loaded" requestId={error.requestId}>
          {error.message}
        </Alert>
      ) : null}
      {page ? (
        page.items.length === 0 ? (
          <p className="rounded-lg border border-dashed border-slate-300 bg-white p-6 text-center text-sm text-slate-600">
            {filtered ? "No rows match these filters." : "No rows."}
          </p>
        ) : (
          <Table aria-label="Rows">
            <THead>
              <TR>
                <TH aria-sort={byUpdated ? undefined : ariaSort}>External id</TH>
                {columns.map((column) => (
                  <TH key={column} data-testid="row-column" className="normal-case">
                    {column}
                  </TH>
                ))}
                <TH aria-sort={byUpdated ? ariaSort : undefined}>Updated</TH>
                {includeDeleted ? <TH>Tombstoned</TH> : null}
                <TH className="text-right">
                  <span className="sr-only">Detail</span>
                </TH>
              </TR>
            </THead>
            <TBody>
              {page.items.map((row) => {
                const data = row.data && typeof row.data === "object" ? (row.data as Record<string, unknown>) : {};
                return (
                  <TR key={row.externalId} data-testid="data-row" data-external-id={row.externalId} className={row.deletedAt ? "text-slate-500" : undefined}>
                    <TD className="font-mono text-xs whitespace-nowrap">{row.externalId}</TD>
                    {columns.map((column) => {
                      const text = cellDisplay(data[column]);
                      return (
                        <TD key={column} className="max-w-56 truncate" title={text}>
                          {text}
                        </TD>
                      );
                    })}
                    <TD className="whitespace-nowrap">
                      <RelativeTime iso={row.updatedAt} />
                    </TD>
                    {includeDeleted ? <TD>{row.deletedAt ? <RelativeTime iso={row.deletedAt} /> : "—"}</TD> : null}
                    <TD className="text-right">
                      <Button variant="outline" size="sm" onClick={() => setOpen(row)} aria-label={`View row ${row.externalId}`}>
                        View
                      </Button>
                    </TD>
                  </TR>
                );
              })}
            </TBody>
          </Table>
        )
      ) : (
        <p className="text-sm text-slate-500">Loading rows…</p>
      )}
      <PagerNav pager={pager} nextCursor={nextCursor} label="Rows pages" />
      {open ? (
        <JsonDrawer
          title={`Row ${open.externalId}`}
          jsonLabel="data"
          json={open.data}
          fieldsLabel="Columns"
          fields={rowFields(columns, open.data)}
          onClose={() => setOpen(null)}
          facts={
            <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
              <dt className="text-slate-600">external_id</dt>
              <dd className="font-mono break-all">{open.externalId}</dd>
              <dt className="text-slate-600">updated_at</dt>
              <dd>
                <time dateTime={open.updatedAt}>{open.updatedAt}</time>
              </dd>
              {open.deletedAt ? (
                <>
                  <dt className="text-slate-600">deleted_at</dt>
                  <dd>
                    <time dateTime={open.deletedAt}>{open.deletedAt}</time>
                  </dd>
                </>
              ) : null}
            </dl>
          }
        />
      ) : null}
    </div>
  );
}

/** A row's columns in the source's order, then any key its data has beyond the column set. */
function rowFields(columns: string[], data: unknown): DrawerField[] {
  const record = data && typeof data === "object" && !Array.isArray(data) ? (data as Record<string, unknown>) : {};
  const names = [...columns, ...Object.keys(record).filter((name) => !columns.includes(name))];
  return names.map((name) => ({ name, value: record[name] }));
}
