import { failure, success, type Failure, type Result } from "@/server/modules/outbound/result";
import { crmRequest, describeCrmError, type CrmResponse, type FetchLike } from "./crm-http";
import { authorized, type Login, type SessionHolder } from "./crm-session";

const MINUTE = 60_000;

interface DeletedIds {
  /** Ids the CRM logged as deleted within the window (each once). */
  ids: string[];
  /**
   * Where the next window must start: the window's end, or earlier when the CRM says a process
   * inside it had not completed (`latestDateCovered`).
   */
  coveredThrough: Date;
}

/** The CRM cannot answer for the window (purged delete log, too many ids): only a full compare can tell. */
export type DeletedRead = Result<DeletedIds> | (Failure & { unavailable: true });

/**
 * Salesforce's "sObject Get Deleted" (REST `/sobjects/{object}/deleted/?start=&end=`, API 29.0+):
 * the ids deleted between `start` and `end`, by the CRM's clock. Its rules, followed here:
 * seconds are ignored (both ends are taken at the minute), `start` must precede `end` by more
 * than a minute, the log reaches back at most 15 days (less if the recycle bin was purged:
 * `earliestDateAvailable`, or INVALID_REPLICATION_DATE), and more than 600 000 ids in one window
 * is EXCEEDED_ID_LIMIT, which the guide answers by asking for closer dates: the window is split
 * in halves until each answers. It has no paging of its own; the halves are its pages.
 */
export async function readDeleted(
  fetchImpl: FetchLike,
  config: Login,
  sessions: SessionHolder,
  window: { start: Date; end: Date },
  timeoutMs: number,
): Promise<DeletedRead> {
  const ids = new Set<string>();
  let coveredThrough = floorMinute(window.end);
  const pending: [Date, Date][] = [[floorMinute(window.start), floorMinute(window.end)]];
  while (pending.length > 0) {
    const [start, end] = pending.shift()!;
    const answer = await askWindow(fetchImpl, config, sessions, start, end, timeoutMs);
    if (!answer.ok) {
      if (!("tooMany" in answer)) return answer;
      const middle = floorMinute(new Date((start.getTime() + end.getTime()) / 2));
      if (middle.getTime() - start.getTime() <= MINUTE || end.getTime() - middle.getTime() <= MINUTE) {
        return {
          ok: false,
          unavailable: true,
          reason: `the CRM logged more deletions of ${config.object} within two minutes than its deleted-records query returns`,
        };
      }
      pending.unshift([start, middle], [middle, end]);
      continue;
    }
    for (const id of answer.value.ids) ids.add(id);
    if (answer.value.latestDateCovered !== null && answer.value.latestDateCovered < coveredThrough) coveredThrough = answer.value.latestDateCovered;
  }
  return success({ ids: [...ids], coveredThrough });
}

type WindowAnswer = Result<{ ids: string[]; latestDateCovered: Date | null }> | (Failure & { unavailable: true }) | (Failure & { tooMany: true });

async function askWindow(fetchImpl: FetchLike, config: Login, sessions: SessionHolder, start: Date, end: Date, timeoutMs: number): Promise<WindowAnswer> {
  const operation = `The CRM deleted-records query on ${config.object}`;
  const query = new URLSearchParams({ start: soapDate(start), end: soapDate(end) });
  let renewed = false;
  for (;;) {
    const session = sessions.current;
    const url = `${session.baseUrl}/services/data/${config.apiVersion}/sobjects/${config.object}/deleted/?${query}`;
    const response = await crmRequest(fetchImpl, operation, url, authorized(session), timeoutMs);
    if (!response.ok) return response;
    if (response.value.status === 401 && !renewed) {
      renewed = true;
      const next = await sessions.renew();
      if (!next.ok) return next;
      continue;
    }
    return judge(operation, response.value, start);
  }
}

function judge(operation: string, response: CrmResponse, start: Date): WindowAnswer {
  const code = errorCodeOf(response.body);
  if (response.status !== 200) {
    if (code === "EXCEEDED_ID_LIMIT") return { ok: false, tooMany: true, reason: describeCrmError(operation, response) };
    if (code === "INVALID_REPLICATION_DATE")
      return { ok: false, unavailable: true, reason: `${describeCrmError(operation, response)}: the window is past the CRM's delete log` };
    return failure(describeCrmError(operation, response));
  }
  const body = response.body as { deletedRecords?: unknown; earliestDateAvailable?: unknown; latestDateCovered?: unknown };
  if (!Array.isArray(body?.deletedRecords)) return failure(`${operation} answered without deletedRecords`);
  // The log no longer reaches back to the window's start: deletions in between are lost to it.
  const earliest = parseDate(body.earliestDateAvailable);
  if (earliest !== null && earliest > start) {
    return {
      ok: false,
      unavailable: true,
      reason: `${operation} reaches back only to ${earliest.toISOString()}, after the window's start ${start.toISOString()}`,
    };
  }
  const ids: string[] = [];
  for (const record of body.deletedRecords as { id?: unknown }[]) {
    if (typeof record?.id !== "string" || record.id === "") return failure(`${operation} returned a deleted record without an id`);
    ids.push(record.id);
  }
  return success({ ids, latestDateCovered: parseDate(body.latestDateCovered) });
}

function errorCodeOf(body: unknown): string | null {
  const first = Array.isArray(body) ? (body[0] as { errorCode?: unknown } | undefined) : undefined;
  return typeof first?.errorCode === "string" ? first.errorCode : null;
}

/** Salesforce dates look like `2013-05-07T22:07:19.000+0000`, which Date cannot parse as is. */
function parseDate(value: unknown): Date | null {
  if (typeof value !== "string") return null;
  const parsed = new Date(value.replace(/([+-]\d{2})(\d{2})$/, "$1:$2"));
  return Number.isNaN(parsed.getTime()) ? null : parsed;
}

function floorMinute(date: Date): Date {
  return new Date(Math.floor(date.getTime() / MINUTE) * MINUTE);
}

/** `2013-05-05T00:00:00+00:00`, as the guide's examples write them. */
function soapDate(date: Date): string {
  return `${date.toISOString().slice(0, 19)}+00:00`;
}
