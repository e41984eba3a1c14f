import { failure, success, type Result } from "../../result";
import { redactSecrets } from "../../redact";
import type { CrmCredentials, CrmObjectConfig } from "../../source-config";
import type { Connector, FetchOptions, Snapshot, SourceRecord } from "../connector";
import { checkCrmUrl, isOnInstanceDomain } from "../targets/crm-target";
import type { TargetPolicy } from "../targets/target-policy";
import { crmRequest, describeCrmError, type FetchLike } from "./crm-http";
import { guardedFetch } from "./guarded-fetch";

interface Session {
  accessToken: string;
  /** Where the REST API lives; the token answer names it (it may differ from the login URL). */
  baseUrl: string;
}

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
 * Mirrors one CRM object through the Salesforce REST query API: an OAuth2 client-credentials
 * token, then SOQL `query` pages followed through `nextRecordsUrl`, one page per batch. The
 * record Id is the external_id. Rows are read in Id order, which sets their first display order.
 */
export function crmObjectConnector(config: CrmObjectConfig, credentials: CrmCredentials, policy: TargetPolicy, fetchImpl: FetchLike = guardedFetch(policy)): Connector {
  const secrets = [credentials.clientSecret];
  const clean = <T>(result: Result<T>): Result<T> => (result.ok ? result : failure(redactSecrets(result.reason, secrets)));

  return {
    async fetchSnapshot(options) {
      // Checked again at every pass: the host's addresses may have changed since creation.
      const instance = await checkCrmUrl(config.instanceUrl, policy);
      if (!instance.ok) return failure(`The CRM instance URL was refused: ${instance.reason}`);
      const login = { ...config, policy, instance: instance.value };
      const session = await authenticate(fetchImpl, login, credentials, options.timeoutMs);
      if (!session.ok) return clean(session);
      const fields = config.fields ? ["Id", ...config.fields.filter((field) => field !== "Id")] : await describeFields(fetchImpl, config, session.value, options.timeoutMs);
      if (!Array.isArray(fields)) return clean(fields);
      const soql = `SELECT ${fields.join(", ")} FROM ${config.object} ORDER BY Id`;
      return success<Snapshot>({
        columns: fields,
        ordered: false,
        batches: () => readPages(fetchImpl, login, credentials, session.value, soql, fields, options, clean),
        close: async () => undefined,
      });
    },
  };
}

/** The configuration plus the checked instance URL and the policy the token's instance_url must pass. */
type Login = CrmObjectConfig & { policy: TargetPolicy; instance: URL };

async function authenticate(fetchImpl: FetchLike, config: Login, credentials: CrmCredentials, timeoutMs: number): Promise<Result<Session>> {
  const operation = "The CRM token endpoint";
  const response = await crmRequest(
    fetchImpl,
    operation,
    `${config.instanceUrl}/services/oauth2/token`,
    {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
      body: new URLSearchParams({ grant_type: "client_credentials", client_id: credentials.clientId, client_secret: credentials.clientSecret }).toString(),
    },
    timeoutMs,
  );
  if (!response.ok) return response;
  const { status, body } = response.value;
  if (status === 400 || status === 401) return failure(`${describeCrmError(operation, response.value)}: check the client id and secret`);
  if (status !== 200) return failure(describeCrmError(operation, response.value));
  const token = body as { access_token?: unknown; instance_url?: unknown };
  if (typeof token.access_token !== "string" || token.access_token === "") return failure(`${operation} answered without an access token`);
  if (token.instance_url === undefined || token.instance_url === null || token.instance_url === "") {
    return success({ accessToken: token.access_token, baseUrl: config.instanceUrl });
  }
  // The access token goes to this host: it must be the configured instance's, and reachable.
  const named = typeof token.instance_url === "string" ? URL.parse(token.instance_url) : null;
  if (!named || !isOnInstanceDomain(config.instance, named)) {
    return failure(`${operation} named an instance_url outside ${config.instance.host} (${named?.host ?? "not a URL"}); refusing to send the token there`);
  }
  const checked = await checkCrmUrl(`${named.origin}${named.pathname}`, config.policy, "the instance_url");
  if (!checked.ok) return failure(`${operation} named an instance_url that was refused: ${checked.reason}`);
  return success({ accessToken: token.access_token, baseUrl: `${named.origin}${named.pathname}`.replace(/\/+$/, "") });
}

async function describeFields(fetchImpl: FetchLike, config: CrmObjectConfig, session: Session, timeoutMs: number): Promise<string[] | Result<never>> {
  const operation = `Describing ${config.object}`;
  const response = await crmRequest(fetchImpl, operation, `${session.baseUrl}/services/data/${config.apiVersion}/sobjects/${config.object}/describe`, authorized(session), timeoutMs);
  if (!response.ok) return response;
  if (response.value.status === 404) return failure(`The CRM has no object named ${config.object}`);
  if (response.value.status !== 200) return failure(describeCrmError(operation, response.value));
  const described = response.value.body as { fields?: { name?: unknown }[] };
  const names = (described.fields ?? []).map((field) => field.name).filter((name): name is string => typeof name === "string");
  return ["Id", ...names.filter((name) => name !== "Id")];
}

async function* readPages(
  fetchImpl: FetchLike,
  config: Login,
  credentials: CrmCredentials,
  initial: Session,
  soql: string,
  fields: string[],
  options: FetchOptions,
  clean: <T>(result: Result<T>) => Result<T>,
): AsyncGenerator<Result<SourceRecord[]>> {
  let session = initial;
  let refreshed = false;
  const pageSize = Math.min(MAX_PAGE, Math.max(MIN_PAGE, options.batchSize));
  let next: string | null = `/services/data/${config.apiVersion}/query?q=${encodeURIComponent(soql)}`;
  // NOTE: a read that stops short but says `done` would be mirrored as "the rest was deleted":
  // the count announced by the first page is checked at the end.
  let announced: number | null = null;
  let delivered = 0;
  while (next !== null) {
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
    if (response.value.status === 401 && !refreshed) {
      // An expired session mid-read: one fresh token, then the same page again.
      refreshed = true;
      const renewed = await authenticate(fetchImpl, config, credentials, options.timeoutMs);
      if (!renewed.ok) {
        yield clean(renewed);
        return;
      }
      session = renewed.value;
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

function authorized(session: Session, extra: Record<string, string> = {}): RequestInit {
  return { method: "GET", headers: { authorization: `Bearer ${session.accessToken}`, accept: "application/json", ...extra } };
}
