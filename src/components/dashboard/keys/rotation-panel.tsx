"use client";

import { RefreshCw } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { exactTime, RelativeTime } from "@/components/ui/relative-time";
import { describeError, trpc, type ShownError } from "@/lib/trpc-client";
import { RotationTraffic } from "../usage/rotation-traffic";
import type { KeyRow } from "./types";

/** How often the old key's last_used_at is re-read while rotating. */
const POLL_MS = 3_000;

/**
 * Rotation, step two (spec 5.9): the old key's last_used_at, re-read from the server every few
 * seconds, so the operator sees it stop changing before revoking.
 */
export function RotationPanel({
  oldKey,
  newKeyId,
  organizationId,
  onRevoke,
  onDone,
  onChange,
}: {
  oldKey: KeyRow;
  /** The replacement, when the page knows it (?with=): its traffic is shown beside the old key's. */
  newKeyId: string | null;
  organizationId: string | null;
  onRevoke: (key: KeyRow) => void;
  onDone: () => void;
  /** The key changed on the server (used, revoked): the table refreshes too. */
  onChange: () => void;
}) {
  const [key, setKey] = useState(oldKey);
  const [checkedAt, setCheckedAt] = useState<number | null>(null);
  const [error, setError] = useState<ShownError | null>(null);
  const lastSeen = useRef(oldKey);
  const onChangeRef = useRef(onChange);
  useEffect(() => {
    onChangeRef.current = onChange;
  }, [onChange]);
  useEffect(() => {
    let cancelled = false;
    const poll = async () => {
      try {
        const fresh = await trpc.keys.get.query({ keyId: oldKey.id, organizationId });
        if (cancelled) return;
        const seen = lastSeen.current;
        lastSeen.current = fresh;
        setKey(fresh);
        if (seen.lastUsedAt !== fresh.lastUsedAt || seen.state !== fresh.state) onChangeRef.current();
        setCheckedAt(Date.now());
        setError(null);
      } catch (caught) {
        if (!cancelled) setError(describeError(caught));
      }
    };
    void poll();
    const timer = setInterval(poll, POLL_MS);
    return () => {
      cancelled = true;
      clearInterval(timer);
    };
  }, [oldKey.id, organizationId]);

  return (
    <section aria-labelledby="rotation-heading" className="mb-5 rounded-lg border border-blue-200 bg-blue-50 p-4">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div>
          <h2 id="rotation-heading" className="flex items-center gap-2 font-semibold text-blue-950">
            <RefreshCw className="size-4" aria-hidden /> Rotating “{key.name}” (<code>{key.prefix}…</code>)
          </h2>
          <p className="mt-1 text-sm text-blue-900">Switch your integration to the new key. When the old key&apos;s last use stops moving, revoke it.</p>
          <p className="mt-3 text-sm">
            Old key last used:{" "}
            <strong data-testid="rotation-last-used" data-last-used={key.lastUsedAt ?? ""}>
              <RelativeTime iso={key.lastUsedAt} />
            </strong>
            {key.lastUsedAt ? <span className="text-slate-600"> ({exactTime(key.lastUsedAt)})</span> : null}
          </p>
          <p className="mt-1 text-xs text-slate-600" aria-live="polite">
            {key.state === "revoked"
              ? "The old key is revoked. Rotation complete."
              : checkedAt
                ? `Checked ${new Date(checkedAt).toLocaleTimeString("en-GB")}; refreshes every ${POLL_MS / 1000} s. Uses are recorded at most once a minute.`
                : "Checking…"}
          </p>
        </div>
        <div className="flex gap-2">
          {key.state === "active" ? (
            <Button variant="destructive" size="sm" onClick={() => onRevoke(key)}>
              Revoke old key
            </Button>
          ) : null}
          <Button variant="outline" size="sm" onClick={onDone}>
            {key.state === "revoked" ? "Close" : "Stop watching"}
          </Button>
        </div>
      </div>
      {newKeyId ? <RotationTraffic organizationId={organizationId} oldKeyId={oldKey.id} newKeyId={newKeyId} lastUsedAt={key.lastUsedAt} /> : null}
      {error ? (
        <Alert className="mt-3" title="Could not refresh the old key" requestId={error.requestId}>
          {error.message}
        </Alert>
      ) : null}
    </section>
  );
}
