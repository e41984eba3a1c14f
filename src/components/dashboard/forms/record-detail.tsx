"use client";

import { JsonDrawer } from "@/components/dashboard/tables/json-drawer";
import { exactTime } from "@/components/ui/relative-time";
import type { RecordItem } from "./types";

/**
 * One record in the side sheet rows use (D506): its id, submitter and time, each field of
 * field_values labelled by name (in the table's order: by name), and the record as the API
 * returns it, to copy. Values are text: markup or scripts a submitter sent show as characters.
 */
export function RecordDetail({ record, onClose }: { record: RecordItem; onClose: () => void }) {
  const values =
    record.fieldValues && typeof record.fieldValues === "object" && !Array.isArray(record.fieldValues) ? (record.fieldValues as Record<string, unknown>) : {};
  return (
    <JsonDrawer
      title={`Record ${record.id}`}
      onClose={onClose}
      fieldsLabel="field_values"
      fields={Object.keys(values)
        .sort()
        .map((name) => ({ name, value: values[name] }))}
      jsonLabel="Record"
      json={{ id: record.id, created_by: record.createdBy, created_at: record.createdAt, field_values: record.fieldValues }}
      facts={
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
      }
    />
  );
}
