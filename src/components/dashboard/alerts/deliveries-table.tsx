"use client";

import { RefreshCw } from "lucide-react";
import { useEffect, useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/card";
import { RelativeTime } from "@/components/ui/relative-time";
import { Table, TBody, TD, TH, THead, TR } from "@/components/ui/table";
import { describeError, trpc, type ShownError } from "@/lib/trpc-client";
import type { DeliveriesPage, DeliveryRow } from "./types";

const statusTone = { sent: "green", failed: "red", pending: "amber", held: "neutral", digested: "neutral" } as const;
const statusLabel: Record<string, string> = { sent: "sent", failed: "failed", pending: "pending", held: "held for digest", digested: "in a digest" };

function StatusBadge({ delivery }: { delivery: DeliveryRow }) {
  const tone = statusTone[delivery.status as keyof typeof statusTone] ?? "neutral";
  const retrying = delivery.status === "pending" && delivery.attempts > 0;
  return <Badge tone={tone}>{retrying ? `retrying (${delivery.attempts} tried)` : (statusLabel[delivery.status] ?? delivery.status)}</Badge>;
}

/** Every message to the scope's channels, newest first; "Load more" follows the cursor. */
export function DeliveriesTable({ organizationId, initial }: { organizationId: string | null; initial: DeliveriesPage }) {
  const [items, setItems] = useState(initial.items);
  const [cursor, setCursor] = useState(initial.nextCursor);
  const [error, setError] = useState<ShownError | null>(null);
  const [pending, setPending] = useState(false);
  const [pages, setPages] = useState(1);

  // While a message is on its way, the first page refreshes itself (only before "Load more").
  const waiting = pages === 1 && items.some((item) => item.status === "pending");
  useEffect(() => {
    if (!waiting) return;
    const timer = setInterval(() => void fetchPage(null), 2000);
    return () => clearInterval(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [waiting]);

  async function fetchPage(next: string | null) {
    setPending(true);
    setError(null);
    try {
      const page = await trpc.alerts.deliveries.query({ organizationId, ...(next ? { cursor: next } : {}) });
      setItems((current) => (next ? [...current, ...page.items] : page.items));
      setCursor(page.nextCursor);
      setPages((current) => (next ? current + 1 : 1));
    } catch (caught) {
      setError(describeError(caught));
    } finally {
      setPending(false);
    }
  }

  return (
    <div className="space-y-3">
      <div className="flex items-center justify-between gap-2">
        <p className="text-sm text-slate-600">Sent, pending (retried with backoff) or failed with the reason.</p>
        <Button variant="outline" size="sm" onClick={() => void fetchPage(null)} disabled={pending}>
          <RefreshCw aria-hidden /> Refresh
        </Button>
      </div>
      {error ? (
        <Alert title="Deliveries could not be loaded" requestId={error.requestId}>
          {error.message}
        </Alert>
      ) : null}
      {items.length === 0 ? (
        <EmptyState title="No deliveries yet">Messages appear here once a rule fires, or when you send a test from a channel.</EmptyState>
      ) : (
        <Table aria-label="Deliveries">
          <THead>
            <TR>
              <TH>Status</TH>
              <TH>Message</TH>
              <TH className="hidden sm:table-cell">Channel</TH>
              <TH className="hidden sm:table-cell">Created</TH>
            </TR>
          </THead>
          <TBody>
            {items.map((delivery) => (
              <TR key={delivery.id} data-testid="delivery-row">
                <TD className="align-top">
                  <StatusBadge delivery={delivery} />
                </TD>
                <TD className="min-w-64 align-top">
                  <p className="break-words text-slate-900">{delivery.subject.replace(/^\[Groundwork\] /, "")}</p>
                  <p className="text-xs text-slate-500">
                    {delivery.kind}
                    <span className="sm:hidden">
                      {" "}
                      · {delivery.channelName} · <RelativeTime iso={delivery.createdAt} />
                    </span>
                  </p>
                  {delivery.lastError ? <p className="mt-1 text-xs break-words text-red-700">Reason: {delivery.lastError}</p> : null}
                  {delivery.lastErrorDetail && delivery.lastErrorDetail !== delivery.lastError ? (
                    <p className="mt-1 text-xs break-words text-slate-600">Detail (owners): {delivery.lastErrorDetail}</p>
                  ) : null}
                </TD>
                <TD className="hidden align-top whitespace-nowrap sm:table-cell">{delivery.channelName}</TD>
                <TD className="hidden align-top whitespace-nowrap sm:table-cell">
                  <RelativeTime iso={delivery.createdAt} />
                </TD>
              </TR>
            ))}
          </TBody>
        </Table>
      )}
      {cursor ? (
        <Button variant="outline" onClick={() => void fetchPage(cursor)} disabled={pending}>
          {pending ? "Loading…" : "Load more"}
        </Button>
      ) : null}
    </div>
  );
}
