"use client";

import { Upload } from "lucide-react";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent } from "@/components/ui/dialog";
import { Label } from "@/components/ui/input";
import type { ShownError } from "@/lib/trpc-client";

interface Uploaded {
  dryRun?: boolean;
  rows: number;
  dataVersion: number;
  schemaVersion: number;
  inserted: number;
  updated: number;
  tombstoned: number;
  revived: number;
  unchanged: number;
}

/** The server's cap (UPLOAD_CSV_MAX_BYTES, D162): a bigger file is refused here, before sending. */
const MAX_BYTES = 20 * 1024 * 1024;

/**
 * Sends the file itself as the body (text/csv) with XMLHttpRequest, which (unlike fetch) reports
 * upload progress. The server parses it as it arrives (D161); nothing is read into memory here.
 */
function postWithProgress(url: string, file: File, onProgress: (fraction: number) => void): Promise<Uploaded> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", url);
    xhr.setRequestHeader("content-type", "text/csv");
    xhr.upload.onprogress = (event) => event.lengthComputable && onProgress(event.loaded / event.total);
    xhr.onerror = () => reject({ message: "The server could not be reached. Check your connection and try again.", requestId: null } satisfies ShownError);
    xhr.onload = () => {
      let body: Partial<Uploaded> & { error?: { message?: string }; request_id?: string | null } = {};
      try {
        body = JSON.parse(xhr.responseText) as typeof body;
      } catch {
        // a non-JSON answer is reported below like any other failure
      }
      if (xhr.status === 200 && typeof body.dataVersion === "number") resolve(body as Uploaded);
      else
        reject({
          message: body.error?.message ?? `Upload failed (${xhr.status})`,
          requestId: body.request_id ?? xhr.getResponseHeader("x-request-id"),
        } satisfies ShownError);
    };
    xhr.send(file);
  });
}

export function UploadCsv({ organizationId, sourceId }: { organizationId: string; sourceId: string }) {
  const router = useRouter();
  const [fraction, setFraction] = useState<number | null>(null);
  const [error, setError] = useState<ShownError | null>(null);
  const [done, setDone] = useState<Uploaded | null>(null);

  /** The file waiting for confirmation, with its dry run's counts (D496). */
  const [pending, setPending] = useState<{ file: File; dry: Uploaded } | null>(null);
  const url = `/api/dashboard/organizations/${encodeURIComponent(organizationId)}/sources/${encodeURIComponent(sourceId)}/csv`;

  const [checking, setChecking] = useState(false);
  async function send(file: File, dryRun: boolean): Promise<Uploaded | null> {
    setChecking(dryRun);
    setFraction(0);
    try {
      return await postWithProgress(dryRun ? `${url}?dry_run=1` : url, file, setFraction);
    } catch (caught) {
      setError(caught as ShownError);
      return null;
    } finally {
      setFraction(null);
    }
  }

  async function onFile(file: File) {
    setError(null);
    setDone(null);
    if (file.size > MAX_BYTES) {
      // A browser may report a reset connection rather than the server's early 413: say it here.
      setError({ message: `The file is ${(file.size / 1048576).toFixed(1)} MiB; the limit is 20 MiB. Nothing was sent.`, requestId: null });
      return;
    }
    // First a dry run against the live rows: the upload replaces every row, so it asks first.
    const dry = await send(file, true);
    if (dry) setPending({ file, dry });
  }

  async function confirm() {
    if (!pending) return;
    const { file } = pending;
    setPending(null);
    const result = await send(file, false);
    if (result) {
      setDone(result);
      router.refresh();
    }
  }

  return (
    <div className="space-y-2">
      <Label
        htmlFor="csv-file"
        className="inline-flex cursor-pointer items-center gap-2 rounded-md border border-slate-300 bg-white px-4 py-2 hover:bg-slate-50 focus-within:ring-2 focus-within:ring-blue-600"
      >
        <Upload className="size-4" aria-hidden /> Upload CSV
        <input
          id="csv-file"
          type="file"
          accept=".csv,text/csv"
          className="sr-only"
          disabled={fraction !== null}
          onChange={(event) => {
            const file = event.target.files?.[0];
            event.target.value = "";
            if (file) void onFile(file);
          }}
        />
      </Label>
      {fraction !== null ? (
        <div className="space-y-1" data-testid="upload-progress">
          <progress value={fraction} max={1} className="h-2 w-48" aria-label="Upload progress" />
          <p className="text-xs text-slate-600">
            {fraction < 1 ? `Uploading… ${Math.round(fraction * 100)}%` : checking ? "Comparing with the current rows…" : "Replacing rows…"}
          </p>
        </div>
      ) : null}
      <Dialog open={pending !== null} onOpenChange={(open) => !open && setPending(null)}>
        {pending ? (
          <DialogContent
            title="Replace the rows with this file?"
            description={`${pending.file.name}: ${pending.dry.rows} row${pending.dry.rows === 1 ? "" : "s"}. Compared with the current rows, the upload would:`}
          >
            <dl className="grid grid-cols-3 gap-2 text-center" data-testid="upload-dry-run">
              <Count label="removed" value={pending.dry.tombstoned} />
              <Count label="changed" value={pending.dry.updated} />
              <Count label="added" value={pending.dry.inserted + pending.dry.revived} />
            </dl>
            <p className="mt-3 text-sm text-slate-700">
              {pending.dry.unchanged} row{pending.dry.unchanged === 1 ? "" : "s"} stay as they are. Devices receive the changes in their next delta.
            </p>
            <div className="mt-4 flex flex-wrap justify-end gap-2">
              <Button type="button" variant="outline" onClick={() => setPending(null)}>
                Cancel
              </Button>
              <Button type="button" onClick={() => void confirm()}>
                Replace rows
              </Button>
            </div>
          </DialogContent>
        ) : null}
      </Dialog>
      {done ? (
        <Alert tone="success" title="File uploaded">
          {done.rows} rows: {done.inserted + done.revived} added, {done.updated} changed, {done.tombstoned} removed, {done.unchanged} unchanged; now data v
          {done.dataVersion}, schema v{done.schemaVersion}. Devices receive the changes in their next delta.
        </Alert>
      ) : null}
      {error ? (
        <Alert title="The file was not accepted; nothing changed" requestId={error.requestId}>
          <span data-testid="upload-error">{error.message}</span>
        </Alert>
      ) : null}
    </div>
  );
}

function Count({ label, value }: { label: string; value: number }) {
  return (
    <div className="rounded-md border border-slate-200 px-2 py-3">
      <dt className="text-xs text-slate-600">{label}</dt>
      <dd className="text-2xl font-semibold text-slate-900" data-testid={`dry-run-${label}`}>
        {value}
      </dd>
    </div>
  );
}
