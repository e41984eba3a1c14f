import { failure, success, type Result } from "@/server/modules/outbound/result";
import type { CrmCredentials, CrmObjectConfig } from "../../source-config";
import { checkCrmUrl, isOnInstanceDomain } from "../targets/crm-target";
import type { TargetPolicy } from "@/server/modules/outbound/target-policy";
import { crmRequest, describeCrmError, type FetchLike } from "./crm-http";

export interface Session {
  accessToken: string;
  /** Where the REST API lives; the token answer names it (it may differ from the login URL). */
  baseUrl: string;
}

/**
 * The session of one read, renewed once when it expires mid-read (a 401 INVALID_SESSION_ID):
 * every request of the read (query pages, the deleted-records query) shares it.
 */
export interface SessionHolder {
  current: Session;
  /** A fresh token, at most once per read; later calls answer the failure that ends the read. */
  renew(): Promise<Result<Session>>;
}

export function sessionHolder(fetchImpl: FetchLike, login: Login, credentials: CrmCredentials, initial: Session, timeoutMs: number): SessionHolder {
  let renewed = false;
  const holder: SessionHolder = {
    current: initial,
    async renew() {
      if (renewed) return failure("The CRM session expired again right after it was renewed");
      renewed = true;
      const next = await authenticate(fetchImpl, login, credentials, timeoutMs);
      if (next.ok) holder.current = next.value;
      return next;
    },
  };
  return holder;
}

/** The configuration plus the checked instance URL and the policy the token's instance_url must pass. */
export type Login = CrmObjectConfig & { policy: TargetPolicy; instance: URL };

export async function authenticate(fetchImpl: FetchLike, config: Login, credentials: CrmCredentials, timeoutMs: number): Promise<Result<Session>> {
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

/** What a describe call says of an object: what change capture needs to know. */
export interface ObjectDescription {
  /** Every field, Id first. */
  fields: string[];
  /** The field that moves on every change (SystemModstamp, else LastModifiedDate), or null. */
  stampField: "SystemModstamp" | "LastModifiedDate" | null;
  /** False when the object does not support the replication calls (getUpdated/getDeleted). */
  replicateable: boolean;
  /** The CRM's clock when it answered. */
  serverTime: Date | null;
}

export async function describeObject(fetchImpl: FetchLike, config: CrmObjectConfig, session: Session, timeoutMs: number): Promise<Result<ObjectDescription>> {
  const operation = `Describing ${config.object}`;
  const response = await crmRequest(
    fetchImpl,
    operation,
    `${session.baseUrl}/services/data/${config.apiVersion}/sobjects/${config.object}/describe`,
    authorized(session),
    timeoutMs,
  );
  if (!response.ok) return response;
  if (response.value.status === 404) return failure(`The CRM has no object named ${config.object}`);
  if (response.value.status !== 200) return failure(describeCrmError(operation, response.value));
  const described = response.value.body as { fields?: { name?: unknown; type?: unknown }[]; replicateable?: unknown };
  const names = (described.fields ?? []).map((field) => field.name).filter((name): name is string => typeof name === "string");
  // Salesforce's replication guide: SystemModstamp is indexed and also moves on system changes;
  // LastModifiedDate is the fallback some objects offer instead.
  const stampField = names.includes("SystemModstamp") ? "SystemModstamp" : names.includes("LastModifiedDate") ? "LastModifiedDate" : null;
  return success({
    fields: ["Id", ...names.filter((name) => name !== "Id")],
    stampField,
    replicateable: described.replicateable !== false,
    serverTime: response.value.serverTime ?? null,
  });
}

/** Every field of the object, Id first (a full read of a source with no field list). */
export async function describeFields(fetchImpl: FetchLike, config: CrmObjectConfig, session: Session, timeoutMs: number): Promise<string[] | Result<never>> {
  const described = await describeObject(fetchImpl, config, session, timeoutMs);
  return described.ok ? described.value.fields : described;
}

export function authorized(session: Session, extra: Record<string, string> = {}): RequestInit {
  return { method: "GET", headers: { authorization: `Bearer ${session.accessToken}`, accept: "application/json", ...extra } };
}
