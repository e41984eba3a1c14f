"use client";

import { Loader2, RefreshCw } from "lucide-react";
import { useRouter } from "next/navigation";
import { useEffect, useRef, useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { describeError, trpc, type ShownError } from "@/lib/trpc-client";
import { count, durationLabel } from "./format";
import type { SyncRun } from "./types";

type Progress = { stage: "queued" } | { stage: "running"; run: SyncRun } | { stage: "done"; run: SyncRun };

const POLL_MS = 700;

/** Queues a pass, then polls its activity (D106): queued → rows read and phase → outcome. */
export function SyncNow({ organizationId, sourceId, label = "Sync now" }: { organizationId: string; sourceId: string; label?: string }) {
  const router = useRouter();
  const [progress, setProgress] = useState<Progress | null>(null);
  const [error, setError] = useState<ShownError | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  async function start() {
    setError(null);
    try {
      const { requestedAt } = await trpc.sources.syncNow.mutate({ organizationId, sourceId });
      setProgress({ stage: "queued" });
      const poll = async () => {
        try {
          const activity = await trpc.sources.activity.query({ organizationId, sourceId, since: requestedAt });
          if (activity.finished) {
            setProgress({ stage: "done", run: activity.finished });
            router.refresh();
            return;
          }
          setProgress(activity.running ? { stage: "running", run: activity.running } : { stage: "queued" });
        } catch (caught) {
          setError(describeError(caught));
        }
        timer.current = setTimeout(() => void poll(), POLL_MS);
      };
      void poll();
    } catch (caught) {
      setError(describeError(caught));
    }
  }

  const busy = progress !== null && progress.stage !== "done";
  return (
    <div className="space-y-2">
      <Button onClick={() => void start()} disabled={busy}>
        {busy ? <Loader2 className="animate-spin" aria-hidden /> : <RefreshCw aria-hidden />} {label}
      </Button>
      <div aria-live="polite" data-testid={label === "Sync now" ? "sync-progress" : "retry-progress"} className="text-sm">
        {progress?.stage === "queued" ? <p className="text-slate-600">Queued; waiting for the worker…</p> : null}
        {progress?.stage === "running" ? (
          <p className="text-blue-800">
            Running: <span data-testid="rows-read">{count(progress.run.rowsRead)}</span> rows read · {progress.run.phase ?? "starting"}
          </p>
        ) : null}
        {progress?.stage === "done" ? <Outcome run={progress.run} /> : null}
      </div>
      {error ? (
        <Alert title="Sync not started" requestId={error.requestId}>
          {error.message}
        </Alert>
      ) : null}
    </div>
  );
}

function Outcome({ run }: { run: SyncRun }) {
  const figures = `${count(run.rowsRead)} rows read in ${durationLabel(run.durationMs)}: ${run.inserted} inserted, ${run.updated} updated, ${run.tombstoned} tombstoned, ${run.revived} revived, ${run.declined} declined`;
  if (run.status === "ok")
    return (
      <Alert tone="success" title="Pass finished: ok">
        {figures}
      </Alert>
    );
  if (run.status === "needs_attention")
    return (
      <Alert tone="warning" title="Pass finished: needs attention">
        {figures}
      </Alert>
    );
  return <Alert title={`Pass finished: ${run.status}`}>{run.error ?? figures}</Alert>;
}
