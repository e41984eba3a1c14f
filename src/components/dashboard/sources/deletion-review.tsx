"use client";

import { ShieldCheck } from "lucide-react";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { RelativeTime } from "@/components/ui/relative-time";
import { Table, TBody, TD, TH, THead, TR } from "@/components/ui/table";
import { describeError, trpc, type ShownError } from "@/lib/trpc-client";
import type { DeletionReview } from "./types";

/** What the guardrail held back (spec 3.2), then Approve: the next completed pass tombstones them. */
export function DeletionReviewPanel({
  organizationId,
  sourceId,
  review,
  canManage,
}: {
  organizationId: string;
  sourceId: string;
  review: DeletionReview;
  canManage: boolean;
}) {
  const router = useRouter();
  const [error, setError] = useState<ShownError | null>(null);
  const [pending, setPending] = useState(false);
  async function approve() {
    setPending(true);
    setError(null);
    try {
      await trpc.sources.approveDeletions.mutate({ organizationId, sourceId });
      router.refresh();
    } catch (caught) {
      setError(describeError(caught));
    } finally {
      setPending(false);
    }
  }
  return (
    <Card aria-labelledby="review-heading" data-testid="deletion-review" className="border-amber-300">
      <h2 id="review-heading" className="text-lg font-semibold text-slate-900">
        Review declined deletions
      </h2>
      <p className="mt-1 text-sm text-slate-700">
        The last pass (<RelativeTime iso={review.passFinishedAt} />) did not see <strong data-testid="declined-count">{review.declined}</strong> live row
        {review.declined === 1 ? "" : "s"} and held their deletion back. They stay live until approved. {review.sample.length < review.declined ? `The first ${review.sample.length}:` : "They are:"}
      </p>
      <Table aria-label="Held-back rows" wrapperClassName="mt-3 max-h-80 overflow-y-auto">
        <THead>
          <TR>
            <TH>External id</TH>
            <TH>Data</TH>
          </TR>
        </THead>
        <TBody>
          {review.sample.map((row) => (
            <TR key={row.externalId} data-testid="held-row">
              <TD className="font-mono text-xs">{row.externalId}</TD>
              <TD className="max-w-xl truncate font-mono text-xs text-slate-700" title={JSON.stringify(row.data)}>
                {JSON.stringify(row.data)}
              </TD>
            </TR>
          ))}
        </TBody>
      </Table>
      <div className="mt-3">
        {review.approvedAt ? (
          <Alert tone="info" title="Approved">
            Approved <RelativeTime iso={review.approvedAt} />: the next completed pass tombstones them. Use “Sync now” to run it.
          </Alert>
        ) : canManage ? (
          <Button onClick={() => void approve()} disabled={pending}>
            <ShieldCheck aria-hidden /> Approve {review.declined} deletion{review.declined === 1 ? "" : "s"}
          </Button>
        ) : (
          <p className="text-sm text-slate-600">Only this organization&apos;s admins and instance owners can approve.</p>
        )}
      </div>
      {error ? (
        <Alert className="mt-3" title="Not approved" requestId={error.requestId}>
          {error.message}
        </Alert>
      ) : null}
    </Card>
  );
}
