"use client";

import { Download, Search, ShieldCheck } from "lucide-react";
import { useRouter } from "next/navigation";
import { useEffect, useState } from "react";
import { ConfirmDialog } from "@/components/dashboard/alerts/confirm-dialog";
import { Alert } from "@/components/ui/alert";
import { Button, buttonVariants } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import { RelativeTime } from "@/components/ui/relative-time";
import { Table, TBody, TD, TH, THead, TR } from "@/components/ui/table";
import { describeError, trpc, type ShownError } from "@/lib/trpc-client";
import { count } from "./format";
import type { DeletionReview } from "./types";

type HeldPage = Awaited<ReturnType<typeof trpc.sources.heldRows.query>>;

/**
 * What the guardrail held back (spec 3.2): every held row, 25 at a time by cursor, searchable and
 * exportable (D465); then Approve, confirmed in a dialog that names the count (D466). The next
 * completed pass tombstones them.
 */
export function DeletionReviewPanel({
  organizationId,
  sourceId,
  review,
  canManage,
  stamp = "",
}: {
  organizationId: string;
  sourceId: string;
  review: DeletionReview;
  canManage: boolean;
  stamp?: string;
}) {
  const router = useRouter();
  const [confirming, setConfirming] = useState(false);
  const [search, setSearch] = useState("");
  const [applied, setApplied] = useState("");
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  const [page, setPage] = useState<HeldPage | null>(null);
  const [error, setError] = useState<ShownError | null>(null);
  const cursor = cursors[cursors.length - 1];
  const plural = review.declined === 1 ? "" : "s";

  useEffect(() => {
    let current = true;
    trpc.sources.heldRows.query({ organizationId, sourceId, search: applied || undefined, cursor }).then(
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
  }, [organizationId, sourceId, applied, cursor, stamp]);

  const exportHref = `/dashboard/organizations/${encodeURIComponent(organizationId)}/sources/${encodeURIComponent(sourceId)}/held/export${applied ? `?search=${encodeURIComponent(applied)}` : ""}`;
  const first = (cursors.length - 1) * 25;
  return (
    <Card aria-labelledby="review-heading" data-testid="deletion-review" className="border-amber-300">
      <h2 id="review-heading" className="text-lg font-semibold text-slate-900">
        Review declined deletions
      </h2>
      <p className="mt-1 text-sm text-slate-700">
        The last pass (<RelativeTime iso={review.passFinishedAt} />) did not see <strong data-testid="declined-count">{review.declined}</strong> live row
        {plural} and held their deletion back. They stay live until approved.
      </p>
      <form
        className="mt-3 flex flex-col gap-2 sm:flex-row sm:items-center"
        onSubmit={(event) => {
          event.preventDefault();
          setApplied(search.trim());
          setCursors([undefined]);
        }}
      >
        <div className="relative flex-1">
          <Search className="pointer-events-none absolute top-2.5 left-2.5 size-4 text-slate-400" aria-hidden />
          <Input
            aria-label="Search held-back rows"
            placeholder="Search external id or data"
            value={search}
            onChange={(e) => setSearch(e.target.value)}
            className="pl-8"
          />
        </div>
        <Button type="submit" variant="outline">
          Search
        </Button>
        <a href={exportHref} className={buttonVariants({ variant: "outline" })} download>
          <Download aria-hidden /> Export CSV
        </a>
      </form>
      {error ? (
        <Alert className="mt-3" title="Held-back rows could not be loaded" requestId={error.requestId}>
          {error.message}
        </Alert>
      ) : null}
      {page ? (
        <>
          <p className="mt-2 text-xs text-slate-600" data-testid="held-range" aria-live="polite">
            {page.items.length === 0
              ? applied
                ? `No held-back row matches “${applied}”.`
                : "No held-back row is still live."
              : `Rows ${count(first + 1)}–${count(first + page.items.length)} of ${count(page.matching)}${applied ? ` matching “${applied}”` : ""}`}
          </p>
          {page.items.length > 0 ? (
            <Table aria-label="Held-back rows" wrapperClassName="mt-2 max-h-96 overflow-y-auto">
              <THead>
                <TR>
                  <TH>External id</TH>
                  <TH>Data</TH>
                </TR>
              </THead>
              <TBody>
                {page.items.map((row) => (
                  <TR key={row.externalId} data-testid="held-row">
                    <TD className="font-mono text-xs">{row.externalId}</TD>
                    <TD className="max-w-xl truncate font-mono text-xs text-slate-700" title={JSON.stringify(row.data)}>
                      {JSON.stringify(row.data)}
                    </TD>
                  </TR>
                ))}
              </TBody>
            </Table>
          ) : null}
        </>
      ) : (
        <p className="mt-2 text-sm text-slate-500">Loading held-back rows…</p>
      )}
      <nav aria-label="Held-back rows pages" className="mt-2 flex justify-end gap-2">
        <Button variant="outline" size="sm" disabled={cursors.length < 2} onClick={() => setCursors((c) => c.slice(0, -1))}>
          Previous
        </Button>
        <Button
          variant="outline"
          size="sm"
          disabled={!page?.nextCursor}
          onClick={() => page?.nextCursor && setCursors((c) => [...c, page.nextCursor ?? undefined])}
        >
          Next
        </Button>
      </nav>
      <div className="mt-3">
        {review.approvedAt ? (
          <Alert tone="info" title="Approved">
            Approved <RelativeTime iso={review.approvedAt} />: the next completed pass tombstones them. Use “Sync now” to run it.
          </Alert>
        ) : canManage ? (
          <Button onClick={() => setConfirming(true)}>
            <ShieldCheck aria-hidden /> Approve {count(review.declined)} deletion{plural}
          </Button>
        ) : (
          <p className="text-sm text-slate-600">Only this organization&apos;s admins and instance owners can approve.</p>
        )}
      </div>
      {confirming ? (
        <ConfirmDialog
          title={`Approve ${count(review.declined)} deletion${plural}?`}
          description={`The next completed pass tombstones the ${count(review.declined)} held-back row${plural}: devices drop them in their next delta. Export them first if you may need them.`}
          action={`Approve ${count(review.declined)} deletion${plural}`}
          onClose={() => setConfirming(false)}
          onConfirm={async () => {
            await trpc.sources.approveDeletions.mutate({ organizationId, sourceId });
            setConfirming(false);
            router.refresh();
          }}
        />
      ) : null}
    </Card>
  );
}
