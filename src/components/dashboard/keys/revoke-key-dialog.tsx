"use client";

import { useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent } from "@/components/ui/dialog";
import { describeError, trpc, type ShownError } from "@/lib/trpc-client";
import type { KeyRow } from "./types";

export function RevokeKeyDialog({
  apiKey,
  organizationId,
  open,
  onOpenChange,
  onRevoked,
}: {
  apiKey: KeyRow;
  organizationId: string | null;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onRevoked: (key: KeyRow) => void;
}) {
  const [error, setError] = useState<ShownError | null>(null);
  const [pending, setPending] = useState(false);
  async function revoke() {
    setPending(true);
    setError(null);
    try {
      onRevoked(await trpc.keys.revoke.mutate({ keyId: apiKey.id, organizationId }));
      onOpenChange(false);
    } catch (caught) {
      setError(describeError(caught));
    } finally {
      setPending(false);
    }
  }
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent
        title={`Revoke “${apiKey.name}”?`}
        description={
          <>
            Requests with <code>{apiKey.prefix}…</code> will be refused (401) from the next one on. This is permanent: a revoked key cannot be restored. It
            stays listed for audit.
          </>
        }
      >
        {error ? (
          <Alert className="mb-3" title="The key was not revoked" requestId={error.requestId}>
            {error.message}
          </Alert>
        ) : null}
        <div className="flex justify-end gap-2">
          <Button variant="outline" onClick={() => onOpenChange(false)}>
            Cancel
          </Button>
          <Button variant="destructive" onClick={() => void revoke()} disabled={pending}>
            {pending ? "Revoking…" : "Revoke key"}
          </Button>
        </div>
      </DialogContent>
    </Dialog>
  );
}
