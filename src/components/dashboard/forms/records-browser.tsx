"use client";

import { Download } from "lucide-react";
import { useEffect, useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Button, buttonVariants } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/card";
import { Select } from "@/components/ui/input";
import { Label } from "@/components/ui/input";
import { exactTime } from "@/components/ui/relative-time";
import { Table, TBody, TD, TH, THead, TR } from "@/components/ui/table";
import { describeError, trpc, type ShownError } from "@/lib/trpc-client";
import { reverseSort, useEndsPager } from "@/components/dashboard/tables/ends-pager";
import { cellDisplay } from "@/components/dashboard/tables/json-drawer";
import { PagerNav } from "@/components/dashboard/tables/pager-nav";
import { RecordDetail } from "./record-detail";
import { RecordFilters } from "./record-filters";
import { RecordsChart } from "./records-chart";
import type { DayCount, RecordItem } from "./types";

interface Filters {
  created_after: string;
  created_before: string;
  submitted_by: string;
}
const NO_FILTERS: Filters = { created_after: "", created_before: "", submitted_by: "" };

/** The query string of GET …/records (and of the export) for these filters. */
function filterQuery(filters: Filters): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(filters)) if (value.trim() !== "") params.set(name, value.trim());
  return params.toString();
}

export function RecordsBrowser({ organizationId, formId }: { organizationId: string; formId: string }) {
  const [applied, setApplied] = useState<Filters>(NO_FILTERS);
  const [sort, setSort] = useState<"-created_at" | "created_at">("-created_at");
  const pager = useEndsPager();
  const { cursor, reversed } = pager;
  const [page, setPage] = useState<{ items: RecordItem[]; nextCursor: string | null } | null>(null);
  const [days, setDays] = useState<DayCount[]>([]);
  const [error, setError] = useState<ShownError | null>(null);
  const [open, setOpen] = useState<RecordItem | null>(null);

  useEffect(() => {
    let current = true;
    const input = {
      organizationId,
      formId,
      createdAfter: applied.created_after.trim() || undefined,
      createdBefore: applied.created_before.trim() || undefined,
      submittedBy: applied.submitted_by.trim() || undefined,
    };
    Promise.all([
      trpc.forms.records.query({ ...input, cursor, sort: reversed ? reverseSort(sort) : sort }),
      cursor || reversed ? Promise.resolve(null) : trpc.forms.perDay.query(input),
    ]).then(
      ([next, perDay]) => {
        if (!current) return;
        setPage(reversed ? { ...next, items: [...next.items].reverse() } : next);
        if (perDay) setDays(perDay);
        setError(null);
      },
      (caught: unknown) => {
        if (!current) return;
        setError(describeError(caught));
        setPage({ items: [], nextCursor: null });
        setDays([]);
      },
    );
    return () => {
      current = false;
    };
  }, [organizationId, formId, applied, cursor, reversed, sort]);

  const filtered = filterQuery(applied) !== "";
  const exportHref = `/dashboard/organizations/${organizationId}/forms/${formId}/export${filtered ? `?${filterQuery(applied)}` : ""}`;
  // One column per field seen on the page, sorted by name, as the export's columns (D459).
  const fields = page ? [...new Set(page.items.flatMap((record) => Object.keys(record.fieldValues)))].sort() : [];
  const ariaSort = sort === "-created_at" ? "descending" : "ascending";

  return (
    <div className="space-y-4">
      <RecordFilters
        organizationId={organizationId}
        formId={formId}
        applied={applied}
        onApply={(filters) => {
          setApplied(filters);
          pager.first();
        }}
      />
      <p className="text-xs text-slate-600">
        The same query on the API:{" "}
        <code className="break-all">
          GET …/records?sort={sort}
          {filtered ? `&${filterQuery(applied)}` : ""}
        </code>
      </p>
      {error ? (
        <Alert title="Records could not be loaded" requestId={error.requestId}>
          {error.message}
        </Alert>
      ) : null}
      <RecordsChart days={days} />
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="records-heading" className="text-lg font-semibold text-slate-900">
          Records {filtered ? <span className="text-sm font-normal text-slate-600">(filtered)</span> : null}
        </h2>
        <div className="flex flex-wrap items-center gap-2">
          <Label htmlFor="records-sort" className="text-xs">
            Order
          </Label>
          <Select
            id="records-sort"
            className="w-auto"
            value={sort}
            onChange={(e) => {
              setSort(e.target.value as "-created_at" | "created_at");
              pager.first();
            }}
          >
            <option value="-created_at">Newest first</option>
            <option value="created_at">Oldest first</option>
          </Select>
          <a href={exportHref} download className={buttonVariants({ variant: "outline", size: "sm" })} data-testid="export-csv">
            <Download aria-hidden /> Export CSV{filtered ? " (filtered)" : ""}
          </a>
        </div>
      </div>
      {page === null ? (
        <p className="text-sm text-slate-600">Loading records…</p>
      ) : page.items.length === 0 ? (
        <EmptyState title={filtered ? "No records match these filters" : "No records yet"}>
          {filtered
            ? "Widen the time range or clear “Submitted by”."
            : "Records appear here once a device or integration posts them (see Connect an integration)."}
        </EmptyState>
      ) : (
        <>
          <ul className="space-y-2 md:hidden" aria-label="Records (compact)">
            {page.items.map((record) => (
              <li key={record.id} data-testid="record-card" className="rounded-lg border border-slate-200 bg-white p-3">
                <div className="flex items-start justify-between gap-2">
                  <div className="min-w-0">
                    <p className="font-mono text-xs text-slate-700">{exactTime(record.createdAt)}</p>
                    <p className="truncate text-sm font-medium text-slate-900">{record.createdBy}</p>
                  </div>
                  <Button variant="outline" size="sm" onClick={() => setOpen(record)} aria-label={`View record ${record.id}`}>
                    View
                  </Button>
                </div>
                <p className="mt-1 line-clamp-2 font-mono text-xs break-all text-slate-700">{JSON.stringify(record.fieldValues)}</p>
              </li>
            ))}
          </ul>
          <Table aria-labelledby="records-heading" wrapperClassName="hidden md:block">
            <THead>
              <TR>
                <TH aria-sort={ariaSort}>Submitted at (UTC)</TH>
                <TH>Submitted by</TH>
                {fields.map((name) => (
                  <TH key={name} className="normal-case" data-testid="record-field-column">
                    {name}
                  </TH>
                ))}
                <TH className="text-right">
                  <span className="sr-only">Detail</span>
                </TH>
              </TR>
            </THead>
            <TBody>
              {page.items.map((record) => (
                <TR key={record.id} data-testid="record-row" data-record-id={record.id}>
                  <TD className="font-mono text-xs whitespace-nowrap">{exactTime(record.createdAt)}</TD>
                  <TD className="max-w-40 truncate" data-testid="record-created-by">
                    {record.createdBy}
                  </TD>
                  {fields.map((name) => {
                    const text = cellDisplay(record.fieldValues[name]);
                    return (
                      <TD key={name} className="max-w-56 truncate" title={text}>
                        {text}
                      </TD>
                    );
                  })}
                  <TD className="text-right">
                    <Button variant="outline" size="sm" onClick={() => setOpen(record)} aria-label={`View record ${record.id}`}>
                      View
                    </Button>
                  </TD>
                </TR>
              ))}
            </TBody>
          </Table>
        </>
      )}
      <PagerNav pager={pager} nextCursor={page?.nextCursor ?? null} label="Records pages" />
      {open ? <RecordDetail record={open} onClose={() => setOpen(null)} /> : null}
    </div>
  );
}
