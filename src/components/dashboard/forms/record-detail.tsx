"use client";

import { Dialog, DialogContent } from "@/components/ui/dialog";
import { exactTime } from "@/components/ui/relative-time";
import type { RecordItem } from "./types";

/**
 * One record as the API returns it. field_values is pretty-printed as text: React escapes it, so
 * markup or scripts a submitter sent show as characters and never run.
 */
export function RecordDetail({ record, onClose }: { record: RecordItem; onClose: () => void }) {
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent title="Record" className="max-w-2xl">
        <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
          <dt className="text-slate-600">id</dt>
          <dd>
            <code className="break-all">{record.id}</code>
          </dd>
          <dt className="text-slate-600">created_by</dt>
          <dd className="break-all" data-testid="detail-created-by">
            {record.createdBy}
          </dd>
          <dt className="text-slate-600">created_at</dt>
          <dd>
            <time dateTime={record.createdAt}>{record.createdAt}</time> <span className="text-slate-600">({exactTime(record.createdAt)})</span>
          </dd>
        </dl>
        <h3 className="mt-4 mb-1 text-sm font-semibold text-slate-900">field_values</h3>
        <pre
          tabIndex={0}
          aria-label="field_values as JSON"
          data-testid="detail-field-values"
          className="max-h-[50vh] overflow-auto rounded-md border border-slate-200 bg-slate-50 p-3 font-mono text-xs whitespace-pre-wrap break-all text-slate-900 focus-visible:ring-2 focus-visible:ring-blue-600 focus-visible:outline-none"
        >
          {JSON.stringify(record.fieldValues, null, 2)}
        </pre>
      </DialogContent>
    </Dialog>
  );
}
