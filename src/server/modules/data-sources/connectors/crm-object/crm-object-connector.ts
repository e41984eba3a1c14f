import { failure, success, type Result } from "@/server/modules/outbound/result";
import { redactSecrets } from "@/server/modules/outbound/redact";
import type { CrmCredentials, CrmObjectConfig } from "../../source-config";
import type { Connector, FetchOptions, Snapshot } from "../connector";
import { checkCrmUrl } from "../targets/crm-target";
import type { TargetPolicy } from "@/server/modules/outbound/target-policy";
import type { FetchLike } from "./crm-http";
import { readDeleted, type DeletedRead } from "./crm-deleted";
import { readPages } from "./crm-query-pages";
import { authenticate, describeFields, describeObject, sessionHolder, type Login, type ObjectDescription, type SessionHolder } from "./crm-session";
import { guardedFetch } from "@/server/modules/outbound/guarded-fetch";

/** One authenticated, described read of the object, for change capture (capture/crm-modified-since.ts). */
export interface CrmCaptureSession {
  /** The object's API name. */
  object: string;
  /** The mirrored column set, Id first. */
  columns: string[];
  /** What the describe call said: the stamp field, replicateable, and the CRM's clock. */
  description: ObjectDescription;
  /** The whole object, as fetchSnapshot reads it. */
  snapshot(): Snapshot;
  /** Only the records whose stamp field is at or after `since` (by the CRM's clock). */
  changedSince(since: Date): Snapshot;
  /** The ids the CRM's delete log holds between the two instants. */
  deletedBetween(window: { start: Date; end: Date }): Promise<DeletedRead>;
}

export interface CrmObjectConnector extends Connector {
  readonly kind: "crm_object";
  openCapture(options: FetchOptions): Promise<Result<CrmCaptureSession>>;
  /** HTTP requests this connector has sent to the CRM: the customer-side cost of a pass. */
  requestsSent(): number;
}

/**
 * Mirrors one CRM object through the Salesforce REST query API: an OAuth2 client-credentials
 * token, then SOQL `query` pages followed through `nextRecordsUrl`, one page per batch. The
 * record Id is the external_id. Rows are read in Id order, which sets their first display order.
 */
export function crmObjectConnector(
  config: CrmObjectConfig,
  credentials: CrmCredentials,
  policy: TargetPolicy,
  fetchImpl: FetchLike = guardedFetch(policy),
): CrmObjectConnector {
  const secrets = [credentials.clientSecret];
  const clean = <T>(result: Result<T>): Result<T> => (result.ok ? result : failure(redactSecrets(result.reason, secrets)));
  let requests = 0;
  const counted: FetchLike = (input, init) => ((requests += 1), fetchImpl(input, init));

  async function login(options: FetchOptions): Promise<Result<{ login: Login; sessions: SessionHolder }>> {
    // Checked again at every pass: the host's addresses may have changed since creation.
    const instance = await checkCrmUrl(config.instanceUrl, policy);
    if (!instance.ok) return failure(`The CRM instance URL was refused: ${instance.reason}`);
    const login = { ...config, policy, instance: instance.value };
    const session = await authenticate(counted, login, credentials, options.timeoutMs);
    if (!session.ok) return clean(session);
    return success({ login, sessions: sessionHolder(counted, login, credentials, session.value, options.timeoutMs) });
  }

  function query(login: Login, sessions: SessionHolder, fields: string[], options: FetchOptions, where = ""): Snapshot {
    const soql = `SELECT ${fields.join(", ")} FROM ${config.object}${where} ORDER BY Id`;
    return { columns: fields, ordered: false, batches: () => readPages(counted, login, sessions, soql, fields, options, clean), close: async () => undefined };
  }

  return {
    kind: "crm_object",
    requestsSent: () => requests,
    async fetchSnapshot(options) {
      const opened = await login(options);
      if (!opened.ok) return opened;
      const { login: checked, sessions } = opened.value;
      const fields = config.fields ? configuredFields(config.fields) : await describeFields(counted, config, sessions.current, options.timeoutMs);
      if (!Array.isArray(fields)) return clean(fields);
      return success(query(checked, sessions, fields, options));
    },
    async openCapture(options) {
      const opened = await login(options);
      if (!opened.ok) return opened;
      const { login: checked, sessions } = opened.value;
      const described = await describeObject(counted, config, sessions.current, options.timeoutMs);
      if (!described.ok) return clean(described);
      const description = described.value;
      const columns = config.fields ? configuredFields(config.fields) : description.fields;
      return success<CrmCaptureSession>({
        object: config.object,
        columns,
        description,
        snapshot: () => query(checked, sessions, columns, options),
        changedSince: (since) => query(checked, sessions, columns, options, ` WHERE ${description.stampField ?? "SystemModstamp"} >= ${soqlDateTime(since)}`),
        deletedBetween: async (window) => {
          const read = await readDeleted(counted, checked, sessions, window, options.timeoutMs);
          return read.ok ? read : { ...read, reason: redactSecrets(read.reason, secrets) };
        },
      });
    },
  };
}

function configuredFields(fields: string[]): string[] {
  return ["Id", ...fields.filter((field) => field !== "Id")];
}

/** A SOQL dateTime literal (no quotes), at the second below: the filter may only widen. */
function soqlDateTime(date: Date): string {
  return `${new Date(Math.floor(date.getTime() / 1000) * 1000).toISOString().slice(0, 19)}Z`;
}
