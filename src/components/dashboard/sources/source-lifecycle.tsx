"use client";

import { Pause, Play, RotateCcw, Trash2 } from "lucide-react";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogTrigger } from "@/components/ui/dialog";
import { Input, Label } from "@/components/ui/input";
import { describeError, trpc, type ShownError } from "@/lib/trpc-client";
import { count } from "./format";
import type { SourceDetail } from "./types";

/** Pause / resume and "Re-read everything" (D131, D137): one click each, the outcome said below. */
export function PauseResync({ source }: { source: SourceDetail }) {
  const router = useRouter();
  const [error, setError] = useState<{ title: string; shown: ShownError } | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const key = { organizationId: source.organizationId, sourceId: source.id };

  async function run(title: string, action: () => Promise<string>) {
    setPending(true);
    setError(null);
    setNotice(null);
    try {
      setNotice(await action());
      router.refresh();
    } catch (caught) {
      setError({ title, shown: describeError(caught) });
    } finally {
      setPending(false);
    }
  }

  if (source.kind === "csv") return null;
  const paused = source.pausedAt !== null;
  return (
    <div className="space-y-2">
      <div className="flex flex-wrap gap-2">
        {paused ? (
          <Button
            variant="outline"
            disabled={pending}
            onClick={() =>
              void run("Not resumed", async () => {
                const resumed = await trpc.sources.resume.mutate(key);
                if (!resumed.scheduled) return "Resumed: it syncs when someone presses “Sync now”.";
                return resumed.passQueued ? "Resumed: its next pass is queued now." : "Resumed: the worker's next tick runs its pass.";
              })
            }
          >
            <Play aria-hidden /> Resume
          </Button>
        ) : (
          <Button
            variant="outline"
            disabled={pending}
            onClick={() =>
              void run("Not paused", async () => {
                await trpc.sources.pause.mutate(key);
                return "Paused: no pass runs until you resume it. Its rows are still served.";
              })
            }
          >
            <Pause aria-hidden /> Pause
          </Button>
        )}
        {!paused ? (
          <Button
            variant="outline"
            disabled={pending}
            title="Read and compare every row, even unchanged ones: for suspected drift"
            onClick={() =>
              void run("Re-read not started", async () => {
                await trpc.sources.resync.mutate(key);
                return "Queued a full re-read: every row is read and compared. It shows in the sync history as “resync”.";
              })
            }
          >
            <RotateCcw aria-hidden /> Re-read everything
          </Button>
        ) : null}
      </div>
      <div aria-live="polite" className="text-sm text-slate-700">
        {notice ? <p data-testid="lifecycle-notice">{notice}</p> : null}
      </div>
      {error ? (
        <Alert title={error.title} requestId={error.shown.requestId}>
          {error.shown.message}
        </Alert>
      ) : null}
    </div>
  );
}

/** Delete, confirmed by typing the source's name (D133). */
export function DeleteSourceDialog({ source }: { source: SourceDetail }) {
  const router = useRouter();
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState("");
  const [error, setError] = useState<ShownError | null>(null);
  const [pending, setPending] = useState(false);
  const rows = source.liveRows + source.tombstones;

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setPending(true);
    setError(null);
    try {
      await trpc.sources.delete.mutate({ organizationId: source.organizationId, sourceId: source.id, confirmName: typed });
      setOpen(false);
      router.push(`/dashboard/organizations/${source.organizationId}/sources?deleted=${encodeURIComponent(source.name)}`);
    } catch (caught) {
      setError(describeError(caught));
    } finally {
      setPending(false);
    }
  }

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        setTyped("");
        setError(null);
      }}
    >
      <DialogTrigger asChild>
        <Button variant="destructive">
          <Trash2 aria-hidden /> Delete
        </Button>
      </DialogTrigger>
      <DialogContent
        title={`Delete “${source.name}”?`}
        description={
          <>
            Its {count(rows)} row{rows === 1 ? "" : "s"} and its sync history are removed. Devices asking for its rows get 404 and drop their copy. This cannot
            be undone; the audit log keeps its id, name, kind and row count.
          </>
        }
      >
        <form onSubmit={(e) => void onSubmit(e)} className="space-y-3" aria-label="Delete data source">
          <div className="space-y-1.5">
            <Label htmlFor="delete-confirm">
              Type <strong className="break-all">{source.name}</strong> to confirm
            </Label>
            <Input id="delete-confirm" value={typed} onChange={(e) => setTyped(e.target.value)} autoComplete="off" spellCheck={false} />
          </div>
          {error ? (
            <Alert title="Not deleted" requestId={error.requestId}>
              {error.message}
            </Alert>
          ) : null}
          <div className="flex justify-end gap-2">
            <Button type="button" variant="outline" onClick={() => setOpen(false)}>
              Cancel
            </Button>
            <Button type="submit" variant="destructive" disabled={pending || typed.trim() !== source.name.trim()}>
              {pending ? "Deleting…" : "Delete source"}
            </Button>
          </div>
        </form>
      </DialogContent>
    </Dialog>
  );
}
