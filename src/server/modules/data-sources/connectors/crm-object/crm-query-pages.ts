import { failure, success, type Result } from "@/server/modules/outbound/result";
import type { FetchOptions, SourceRecord } from "../connector";
import { crmRequest, describeCrmError, type FetchLike } from "./crm-http";
import { authorized, type Login, type SessionHolder } from "./crm-session";

interface QueryPage {
  /** The size of the whole result, on every page. */
  totalSize?: number;
  done: boolean;
  nextRecordsUrl?: string;
  records: Record<string, unknown>[];
}

/** Salesforce lets a query page hold 200..2000 records. */
const MIN_PAGE = 200;
const MAX_PAGE = 2000;

/**
 * The records of one SOQL query, page by page through `nextRecordsUrl`, one batch per page.
 * A failure ends the read (nothing after it is yielded).
 */
export async function* readPages(
  fetchImpl: FetchLike,
  config: Login,
  sessions: SessionHolder,
  soql: string,
  fields: string[],
  options: FetchOptions,
  clean: <T>(result: Result<T>) => Result<T>,
): AsyncGenerator<Result<SourceRecord[]>> {
  const pageSize = Math.min(MAX_PAGE, Math.max(MIN_PAGE, options.batchSize));
  let next: string | null = `/services/data/${config.apiVersion}/query?q=${encodeURIComponent(soql)}`;
  // NOTE: a read that stops short but says `done` would be mirrored as "the rest was deleted":
  // the count announced by the first page is checked at the end.
  let announced: number | null = null;
  let delivered = 0;
  let sessionRenewed = false;
  while (next !== null) {
    const session = sessions.current;
    const url = new URL(next, `${session.baseUrl}/`);
    // The bearer token goes only to the API host that issued it.
    if (url.origin !== new URL(session.baseUrl).origin) {
      yield failure(`The CRM pointed the next page to another host (${url.host}); refusing to follow it`);
      return;
    }
    const operation = `The CRM query on ${config.object}`;
    const init = authorized(session, { "Sforce-Query-Options": `batchSize=${pageSize}` });
    const response = await crmRequest(fetchImpl, operation, url.toString(), init, options.timeoutMs);
    if (!response.ok) {
      yield clean(response);
      return;
    }
    if (response.value.status === 401 && !sessionRenewed) {
      // An expired session mid-read: one fresh token, then the same page again.
      sessionRenewed = true;
      const renewed = await sessions.renew();
      if (!renewed.ok) {
        yield clean(renewed);
        return;
      }
      continue;
    }
    if (response.value.status !== 200) {
      yield clean(failure(describeCrmError(operation, response.value)));
      return;
    }
    const page = response.value.body as QueryPage;
    if (!Array.isArray(page?.records)) {
      yield failure(`${operation} answered a page without records`);
      return;
    }
    const records: SourceRecord[] = [];
    for (const record of page.records) {
      if (typeof record.Id !== "string" || record.Id === "") {
        yield failure(`${operation} returned a record without an Id`);
        return;
      }
      records.push({ externalId: record.Id, data: Object.fromEntries(fields.map((field) => [field, record[field] ?? null])), orderValue: null });
    }
    if (announced === null && typeof page.totalSize === "number") announced = page.totalSize;
    delivered += records.length;
    if (page.done && announced !== null && delivered !== announced) {
      yield failure(`${operation} ended after ${delivered} of the ${announced} records it announced; the read is incomplete`);
      return;
    }
    if (records.length > 0) yield success(records);
    const following: string | null = !page.done && typeof page.nextRecordsUrl === "string" ? page.nextRecordsUrl : null;
    if (!page.done && following === null) {
      yield failure(`${operation} said more records follow but gave no nextRecordsUrl`);
      return;
    }
    // A CRM that keeps saying "more" without moving on would otherwise spin until the pass limit.
    if (!page.done && (records.length === 0 || following === next)) {
      yield failure(`${operation} returned a page that makes no progress (${records.length === 0 ? "no records" : "the same nextRecordsUrl"}) but is not done`);
      return;
    }
    next = following;
  }
}
