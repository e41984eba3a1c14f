"use client";

import { useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent } from "@/components/ui/dialog";
import { describeError, type ShownError } from "@/lib/trpc-client";

/** A destructive step, confirmed; the server's refusal is shown with its request id. */
export function ConfirmDialog({
  title,
  description,
  action,
  onConfirm,
  onClose,
}: {
  title: string;
  description: string;
  action: string;
  onConfirm: () => Promise<void>;
  onClose: () => void;
}) {
  const [error, setError] = useState<ShownError | null>(null);
  const [pending, setPending] = useState(false);
  async function confirm() {
    setPending(true);
    setError(null);
    try {
      await onConfirm();
    } catch (caught) {
      setError(describeError(caught));
      setPending(false);
    }
  }
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent title={title} description={description}>
        {error ? (
          <Alert className="mb-3" title="Not done" requestId={error.requestId}>
            {error.message}
          </Alert>
        ) : null}
        <div className="flex justify-end gap-2">
          <Button variant="outline" onClick={onClose}>
            Cancel
          </Button>
          <Button variant="destructive" onClick={() => void confirm()} disabled={pending}>
            {pending ? "Working…" : action}
          </Button>
        </div>
      </DialogContent>
    </Dialog>
  );
}
