"use client";

import { Search } from "lucide-react";
import { useEffect, useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { RelativeTime } from "@/components/ui/relative-time";
import { Table, TBody, TD, TH, THead, TR } from "@/components/ui/table";
import { describeError, trpc, type ShownError } from "@/lib/trpc-client";

type RowsPage = Awaited<ReturnType<typeof trpc.sources.rows.query>>;

/**
 * A source's rows, 25 at a time: searchable (external id or data), live only or with tombstones.
 * `stamp` is the source's state as the page last read it (sourceStamp): when a pass, an upload or
 * an approval changes it, the page's refresh hands a new stamp and the rows are read again (D460).
 */
export function RowsView({ organizationId, sourceId, stamp = "" }: { organizationId: string; sourceId: string; stamp?: string }) {
  const [search, setSearch] = useState("");
  const [applied, setApplied] = useState("");
  const [includeDeleted, setIncludeDeleted] = useState(false);
  /** Cursors of the pages before this one, to step back. */
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  const [page, setPage] = useState<RowsPage | null>(null);
  const [error, setError] = useState<ShownError | null>(null);
  const cursor = cursors[cursors.length - 1];

  useEffect(() => {
    let current = true;
    trpc.sources.rows.query({ organizationId, sourceId, search: applied || undefined, includeDeleted, cursor }).then(
      (next) => {
        if (!current) return;
        setPage(next);
        setError(null);
      },
      (caught: unknown) => current && setError(describeError(caught)),
    );
    return () => {
      current = false;
    };
  }, [organizationId, sourceId, applied, includeDeleted, cursor, stamp]);

  return (
    <div className="space-y-3">
      <form
        className="flex flex-col gap-2 sm:flex-row sm:items-center"
        onSubmit={(event) => {
          event.preventDefault();
          setApplied(search.trim());
          setCursors([undefined]);
        }}
      >
        <div className="relative flex-1">
          <Search className="pointer-events-none absolute top-2.5 left-2.5 size-4 text-slate-400" aria-hidden />
          <Input aria-label="Search rows" placeholder="Search external id or data" value={search} onChange={(e) => setSearch(e.target.value)} className="pl-8" />
        </div>
        <label className="flex items-center gap-2 text-sm text-slate-700">
          <input
            type="checkbox"
            checked={includeDeleted}
            onChange={(e) => {
              setIncludeDeleted(e.target.checked);
              setCursors([undefined]);
            }}
          />
          Include tombstones
        </label>
        <Button type="submit" variant="outline">
          Search
        </Button>
      </form>
      {error ? (
        <Alert title="Rows could not be loaded" requestId={error.requestId}>
          {error.message}
        </Alert>
      ) : null}
      {page ? (
        page.items.length === 0 ? (
          <p className="rounded-lg border border-dashed border-slate-300 bg-white p-6 text-center text-sm text-slate-600">{applied ? `No rows match “${applied}”.` : "No rows."}</p>
        ) : (
          <Table aria-label="Rows">
            <THead>
              <TR>
                <TH>External id</TH>
                <TH>Data</TH>
                <TH>Updated</TH>
                {includeDeleted ? <TH>Tombstoned</TH> : null}
              </TR>
            </THead>
            <TBody>
              {page.items.map((row) => (
                <TR key={row.externalId} data-testid="data-row" className={row.deletedAt ? "text-slate-500" : undefined}>
                  <TD className="font-mono text-xs">{row.externalId}</TD>
                  <TD className="max-w-md truncate font-mono text-xs" title={JSON.stringify(row.data)}>
                    {JSON.stringify(row.data)}
                  </TD>
                  <TD className="whitespace-nowrap">
                    <RelativeTime iso={row.updatedAt} />
                  </TD>
                  {includeDeleted ? <TD>{row.deletedAt ? <RelativeTime iso={row.deletedAt} /> : "—"}</TD> : null}
                </TR>
              ))}
            </TBody>
          </Table>
        )
      ) : (
        <p className="text-sm text-slate-500">Loading rows…</p>
      )}
      <div className="flex justify-end gap-2">
        <Button variant="outline" size="sm" disabled={cursors.length < 2} onClick={() => setCursors((c) => c.slice(0, -1))}>
          Previous
        </Button>
        <Button variant="outline" size="sm" disabled={!page?.nextCursor} onClick={() => page?.nextCursor && setCursors((c) => [...c, page.nextCursor ?? undefined])}>
          Next
        </Button>
      </div>
    </div>
  );
}
