import { emptyDeleteLog, salesforceDate, type DeleteLog } from "./fake-crm-deleted";

export interface ObjectOptions {
  /** The field that moves on every change; null: the object has none (no modified-since reads). */
  stampField?: "SystemModstamp" | "LastModifiedDate" | null;
  /** False: the object refuses replication calls (describe says `replicateable: false`). */
  replicateable?: boolean;
}

/** One sObject of the fake CRM: its fields (the stamp field last), records and delete log. */
export interface SObject {
  fields: string[];
  records: Record<string, unknown>[];
  stampField: string | null;
  replicateable: boolean;
  deleteLog: DeleteLog;
}

/**
 * The object after users made it hold exactly `records`: a record new or changed (by its
 * declared fields) gets `now` as its stamp unless it carries one, an unchanged one keeps its
 * stamp, and a record that is gone is written to the delete log at `now`.
 */
export function nextObject(previous: SObject | undefined, fields: string[], records: Record<string, unknown>[], options: ObjectOptions, now: Date): SObject {
  const stampField = options.stampField !== undefined ? options.stampField : previous ? previous.stampField : "SystemModstamp";
  const declared = ["Id", ...fields.filter((field) => field !== "Id" && field !== stampField)];
  const object: SObject = {
    fields: stampField ? [...declared, stampField] : declared,
    records: [],
    stampField,
    replicateable: options.replicateable ?? previous?.replicateable ?? true,
    deleteLog: previous?.deleteLog ?? emptyDeleteLog(),
  };
  const before = new Map((previous?.records ?? []).map((record) => [String(record.Id), record]));
  const stamp = salesforceDate(now);
  for (const record of records) {
    const old = before.get(String(record.Id));
    before.delete(String(record.Id));
    if (!stampField || record[stampField] !== undefined) object.records.push({ ...record });
    else if (old && sameValues(old, record, declared)) object.records.push({ ...record, [stampField]: old[stampField] });
    else object.records.push({ ...record, [stampField]: stamp });
  }
  for (const id of before.keys()) object.deleteLog.entries.push({ id, deletedAt: now.getTime() });
  return object;
}

function sameValues(a: Record<string, unknown>, b: Record<string, unknown>, fields: string[]): boolean {
  return fields.every((field) => JSON.stringify(a[field] ?? null) === JSON.stringify(b[field] ?? null));
}

export function stampOf(record: Record<string, unknown>, object: SObject): number {
  return object.stampField ? new Date(String(record[object.stampField]).replace(/([+-]\d{2})(\d{2})$/, "$1:$2")).getTime() : 0;
}

export function fieldType(field: string, object: SObject): string {
  if (field === "Id") return "id";
  return field === object.stampField ? "datetime" : "string";
}
