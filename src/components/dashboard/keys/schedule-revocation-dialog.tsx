"use client";

import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogFormFooter } from "@/components/ui/dialog";
import { Input } from "@/components/ui/input";
import { describeError, trpc, type ShownError } from "@/lib/trpc-client";
import type { KeyRow } from "./types";

const PRESETS = [
  { value: "1h", label: "In 1 hour" },
  { value: "24h", label: "In 24 hours" },
  { value: "7d", label: "In 7 days" },
] as const;
type Choice = (typeof PRESETS)[number]["value"] | "at";

/**
 * A revocation at a time (D480): from then on the key is refused. Keys stay otherwise
 * uneditable (spec 3.1); a scheduled revocation can be cancelled until its time.
 */
export function ScheduleRevocationDialog({
  apiKey,
  organizationId,
  onOpenChange,
  onScheduled,
}: {
  apiKey: KeyRow;
  organizationId: string | null;
  onOpenChange: (open: boolean) => void;
  onScheduled: (key: KeyRow) => void;
}) {
  const [choice, setChoice] = useState<Choice>("24h");
  const [at, setAt] = useState("");
  const [error, setError] = useState<ShownError | null>(null);
  const [pending, setPending] = useState(false);

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setPending(true);
    setError(null);
    try {
      // datetime-local is the viewer's local time; the server gets an exact instant.
      const when = choice === "at" ? { at: new Date(at).toISOString() } : { in: choice };
      onScheduled(await trpc.keys.scheduleRevocation.mutate({ keyId: apiKey.id, organizationId, when }));
      onOpenChange(false);
    } catch (caught) {
      setError(describeError(caught));
    } finally {
      setPending(false);
    }
  }

  return (
    <Dialog open onOpenChange={onOpenChange}>
      <DialogContent
        title={`Schedule the revocation of “${apiKey.name}”`}
        description={
          <>
            Requests with <code>{apiKey.prefix}…</code> keep working until the time you choose, then are refused (401). Until then you can cancel it; after it,
            the revocation is permanent.
          </>
        }
      >
        <form onSubmit={onSubmit} className="space-y-4">
          <fieldset className="space-y-2">
            <legend className="text-sm font-medium text-slate-800">Revoke</legend>
            {PRESETS.map((preset) => (
              <label key={preset.value} className="flex items-center gap-2 text-sm">
                <input
                  type="radio"
                  name="when"
                  value={preset.value}
                  checked={choice === preset.value}
                  onChange={() => setChoice(preset.value)}
                  className="accent-slate-900"
                />
                {preset.label}
              </label>
            ))}
            <label className="flex items-center gap-2 text-sm">
              <input type="radio" name="when" value="at" checked={choice === "at"} onChange={() => setChoice("at")} className="accent-slate-900" />
              At a time
            </label>
            {choice === "at" ? (
              <div className="pl-6">
                <label htmlFor="revoke-at" className="text-xs font-medium text-slate-600">
                  Date and time (your local time)
                </label>
                <Input id="revoke-at" type="datetime-local" required value={at} onChange={(event) => setAt(event.target.value)} className="mt-1" />
              </div>
            ) : null}
          </fieldset>
          <DialogFormFooter
            error={error}
            errorTitle="The revocation was not scheduled"
            submitLabel={pending ? "Scheduling…" : "Schedule revocation"}
            pending={pending}
            onCancel={() => onOpenChange(false)}
          />
        </form>
      </DialogContent>
    </Dialog>
  );
}

/** Cancels a pending scheduled revocation; the key stays active. */
export function CancelRevocationButton({
  apiKey,
  organizationId,
  onCancelled,
  onError,
}: {
  apiKey: KeyRow;
  organizationId: string | null;
  onCancelled: (key: KeyRow) => void;
  onError: (error: ShownError) => void;
}) {
  const [pending, setPending] = useState(false);
  return (
    <Button
      variant="outline"
      size="sm"
      disabled={pending}
      onClick={async () => {
        setPending(true);
        try {
          onCancelled(await trpc.keys.cancelRevocation.mutate({ keyId: apiKey.id, organizationId }));
        } catch (caught) {
          onError(describeError(caught));
        } finally {
          setPending(false);
        }
      }}
    >
      {pending ? "Cancelling…" : "Cancel scheduled revocation"}
    </Button>
  );
}
