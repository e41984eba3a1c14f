"use client";

import { Download } from "lucide-react";
import { useEffect, useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Button, buttonVariants } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/card";
import { Input, Label } from "@/components/ui/input";
import { exactTime } from "@/components/ui/relative-time";
import { Table, TBody, TD, TH, THead, TR } from "@/components/ui/table";
import { describeError, trpc, type ShownError } from "@/lib/trpc-client";
import { RecordDetail } from "./record-detail";
import { RecordsChart } from "./records-chart";
import type { DayCount, RecordItem } from "./types";

interface Filters {
  created_after: string;
  created_before: string;
  submitted_by: string;
}
const NO_FILTERS: Filters = { created_after: "", created_before: "", submitted_by: "" };

/** The query string of GET …/records (and of the export) for these filters. */
export function filterQuery(filters: Filters): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(filters)) if (value.trim() !== "") params.set(name, value.trim());
  return params.toString();
}

/**
 * A form's records, newest first, 25 a page, with the API's own filters (both time bounds
 * exclusive). Pages come from forms.records, i.e. listRecords behind GET …/records.
 */
export function RecordsBrowser({ organizationId, formId }: { organizationId: string; formId: string }) {
  const [draft, setDraft] = useState<Filters>(NO_FILTERS);
  const [applied, setApplied] = useState<Filters>(NO_FILTERS);
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  const [page, setPage] = useState<{ items: RecordItem[]; nextCursor: string | null } | null>(null);
  const [days, setDays] = useState<DayCount[]>([]);
  const [error, setError] = useState<ShownError | null>(null);
  const [open, setOpen] = useState<RecordItem | null>(null);
  const cursor = cursors[cursors.length - 1];

  useEffect(() => {
    let current = true;
    const input = {
      organizationId,
      formId,
      createdAfter: applied.created_after.trim() || undefined,
      createdBefore: applied.created_before.trim() || undefined,
      submittedBy: applied.submitted_by.trim() || undefined,
    };
    Promise.all([trpc.forms.records.query({ ...input, cursor }), cursor ? Promise.resolve(null) : trpc.forms.perDay.query(input)]).then(
      ([next, perDay]) => {
        if (!current) return;
        setPage(next);
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
  }, [organizationId, formId, applied, cursor]);

  const filtered = filterQuery(applied) !== "";
  const exportHref = `/dashboard/organizations/${organizationId}/forms/${formId}/export${filtered ? `?${filterQuery(applied)}` : ""}`;
  const field = (name: keyof Filters, label: string, placeholder: string) => (
    <div className="space-y-1">
      <Label htmlFor={`filter-${name}`} className="text-xs">
        {label}
      </Label>
      <Input id={`filter-${name}`} value={draft[name]} placeholder={placeholder} onChange={(e) => setDraft({ ...draft, [name]: e.target.value })} />
    </div>
  );

  return (
    <div className="space-y-4">
      <form
        aria-label="Record filters"
        className="grid gap-3 rounded-lg border border-slate-200 bg-white p-3 sm:grid-cols-[1fr_1fr_1fr_auto] sm:items-end"
        onSubmit={(event) => {
          event.preventDefault();
          setApplied({ ...draft });
          setCursors([undefined]);
        }}
      >
        {field("created_after", "created_after (exclusive)", "2026-01-31T00:00:00Z")}
        {field("created_before", "created_before (exclusive)", "2026-02-01T00:00:00Z")}
        {field("submitted_by", "submitted_by", "created_by equals…")}
        <div className="flex gap-2">
          <Button type="submit">Apply</Button>
          <Button
            type="button"
            variant="outline"
            onClick={() => {
              setDraft(NO_FILTERS);
              setApplied(NO_FILTERS);
              setCursors([undefined]);
            }}
          >
            Clear
          </Button>
        </div>
      </form>
      <p className="text-xs text-slate-600">
        Timestamps are ISO 8601 with an offset (or a date alone: midnight UTC), as GET …/records takes them; both bounds are exclusive. Same query:{" "}
        <code className="break-all">?sort=-created_at{filtered ? `&${filterQuery(applied)}` : ""}</code>
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
        <a href={exportHref} download className={buttonVariants({ variant: "outline", size: "sm" })} data-testid="export-csv">
          <Download aria-hidden /> Export CSV{filtered ? " (filtered)" : ""}
        </a>
      </div>
      {page === null ? (
        <p className="text-sm text-slate-600">Loading records…</p>
      ) : page.items.length === 0 ? (
        <EmptyState title={filtered ? "No records match these filters" : "No records yet"}>
          {filtered ? "Widen the time range or clear submitted_by." : "Records appear here once a device or integration posts them (see Connect an integration)."}
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
              <TH>created_at (UTC)</TH>
              <TH>created_by</TH>
              <TH>field_values</TH>
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
                <TD className="max-w-xs truncate font-mono text-xs sm:max-w-md">{JSON.stringify(record.fieldValues)}</TD>
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
      <div className="flex justify-end gap-2">
        <Button variant="outline" size="sm" disabled={cursors.length < 2} onClick={() => setCursors((c) => c.slice(0, -1))}>
          Newer
        </Button>
        <Button variant="outline" size="sm" disabled={!page?.nextCursor} onClick={() => page?.nextCursor && setCursors((c) => [...c, page.nextCursor ?? undefined])}>
          Older
        </Button>
      </div>
      {open ? <RecordDetail record={open} onClose={() => setOpen(null)} /> : null}
    </div>
  );
}
