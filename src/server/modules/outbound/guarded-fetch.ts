import http from "node:http";
import https from "node:https";
import { isIP, type LookupFunction } from "node:net";
import { Readable } from "node:stream";
import { checkedAddresses, type TargetPolicy } from "./target-policy";

/** `fetch` as connectors and senders call it (tests pass a fake). */
export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

/** The error code of a host the policy refused (see describeFetchError). */
const REFUSED_TARGET = "EREFUSEDTARGET";

const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

/**
 * `fetch` for tenant-configured hosts: every request resolves its host through the target
 * policy and connects to the address that was checked, so a DNS answer that changes between
 * the check and the connection (rebinding) cannot point the request inward. TLS still checks
 * the certificate against the host name. Redirects are never followed (a 3xx comes back as it is).
 */
export function guardedFetch(policy: TargetPolicy): FetchLike {
  return async (input, init) => {
    const url = new URL(input);
    const checked = await checkedAddresses(url.hostname, policy);
    if (!checked.ok) throw new TypeError("fetch failed", { cause: Object.assign(new Error(checked.reason), { code: REFUSED_TARGET }) });
    const address = checked.value[0]!;
    const family = isIP(address);
    const lookup: LookupFunction = (_hostname, options, callback) => {
      if (options.all) (callback as (error: null, addresses: { address: string; family: number }[]) => void)(null, [{ address, family }]);
      else callback(null, address, family);
    };
    const transport = url.protocol === "https:" ? https : http;
    return new Promise<Response>((resolve, reject) => {
      const request = transport.request(
        url,
        { method: init.method ?? "GET", headers: toHeaders(init), signal: init.signal ?? undefined, lookup },
        (response) => {
          const headers = new Headers();
          for (let i = 0; i + 1 < response.rawHeaders.length; i += 2) headers.append(response.rawHeaders[i]!, response.rawHeaders[i + 1]!);
          const status = response.statusCode ?? 502;
          const body = NULL_BODY_STATUSES.has(status) ? null : (Readable.toWeb(response) as ReadableStream<Uint8Array>);
          if (body === null) response.resume();
          resolve(new Response(body, { status, headers }));
        },
      );
      request.on("error", (error: Error) => reject(error.name === "AbortError" ? error : new TypeError("fetch failed", { cause: error })));
      request.end(typeof init.body === "string" ? init.body : undefined);
    });
  };
}

function toHeaders(init: RequestInit): Record<string, string> {
  const headers = Object.fromEntries(new Headers(init.headers ?? {}).entries());
  if (typeof init.body === "string") headers["content-length"] = String(Buffer.byteLength(init.body));
  return headers;
}
