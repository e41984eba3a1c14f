/** What the fake CRM keeps of deleted records: Salesforce's delete log behind "sObject Get Deleted". */
export interface DeleteLog {
  entries: { id: string; deletedAt: number }[];
  /** An administrator emptied the recycle bin up to here (ms): earlier deletions are gone. */
  purgedThrough: number;
}

export function emptyDeleteLog(): DeleteLog {
  return { entries: [], purgedThrough: 0 };
}

const MINUTE = 60_000;
/** Salesforce answers for no more than 15 days before the day of the call. */
const RETENTION_MS = 15 * 24 * 60 * MINUTE;

/**
 * `GET /sobjects/{object}/deleted/?start=&end=` as Salesforce documents it: seconds ignored,
 * start more than a minute before end, INVALID_REPLICATION_DATE past the 15-day log,
 * `earliestDateAvailable` after a purge, EXCEEDED_ID_LIMIT past the id limit, and
 * `latestDateCovered` (no later than now).
 */
export function answerDeleted(log: DeleteLog, params: URLSearchParams, now: Date, idLimit: number): { status: number; body: unknown } {
  const start = parseParam(params.get("start"));
  const end = parseParam(params.get("end"));
  if (start === null || end === null) return invalid("start and end must be dateTime values");
  if (end - start <= MINUTE) return invalid("startDate must chronologically precede endDate by more than one minute");
  if (start < floor(now.getTime() - RETENTION_MS))
    return invalid(`startDate is before the earliest available date ${salesforceDate(new Date(now.getTime() - RETENTION_MS))}`);
  const covered = Math.min(end, floor(now.getTime()));
  const ids = log.entries.filter((entry) => entry.deletedAt >= start && entry.deletedAt < covered);
  if (ids.length > idLimit) return { status: 400, body: [{ errorCode: "EXCEEDED_ID_LIMIT", message: "record limit reached. narrow the date range" }] };
  const earliest = Math.max(floor(now.getTime() - RETENTION_MS), floor(log.purgedThrough));
  return {
    status: 200,
    body: {
      deletedRecords: ids.map((entry) => ({ id: entry.id, deletedDate: salesforceDate(new Date(entry.deletedAt)) })),
      earliestDateAvailable: salesforceDate(new Date(earliest)),
      latestDateCovered: salesforceDate(new Date(covered)),
    },
  };
}

/** `2013-05-07T22:07:19.000+0000`, Salesforce's dateTime form. */
export function salesforceDate(date: Date): string {
  return date.toISOString().replace("Z", "+0000");
}

function parseParam(value: string | null): number | null {
  if (!value) return null;
  const parsed = new Date(value).getTime();
  return Number.isNaN(parsed) ? null : floor(parsed);
}

function floor(ms: number): number {
  return Math.floor(ms / MINUTE) * MINUTE;
}

function invalid(message: string): { status: number; body: unknown } {
  return { status: 400, body: [{ errorCode: "INVALID_REPLICATION_DATE", message }] };
}
