/**
 * A `fetch` that breaks on purpose, for the device-sync library's devices (D412): between the
 * library and the real API it cuts connections in the middle of a page's body, answers 429 (with
 * `Retry-After`) or 503 (before the server saw the request, or after it did the work), and
 * "kills the process": it throws `SimulatedKill`, which the library does not catch, so the pull
 * stops wherever it was and the device reopens its store as a restarted app would.
 */
export interface FaultRates {
  /** Each a chance per request, from 0 to 1. */
  cut: number;
  rateLimited: number;
  unavailable: number;
  kill: number;
}

export interface FaultCounts {
  requests: number;
  cut: number;
  rateLimited: number;
  unavailable: number;
  kills: number;
}

export class SimulatedKill extends Error {
  override name = "SimulatedKill";
}

export function emptyFaultCounts(): FaultCounts {
  return { requests: 0, cut: 0, rateLimited: 0, unavailable: 0, kills: 0 };
}

function envelope(status: number, code: string, message: string, headers: Record<string, string> = {}): Response {
  const body = JSON.stringify({ error: { code, message }, request_id: "req_injected_fault" });
  return new Response(body, { status, headers: { "content-type": "application/json", ...headers } });
}

/** A response whose body stops half-way with the error undici raises when a connection drops. */
async function cutMidBody(response: Response): Promise<Response> {
  const bytes = new Uint8Array(await response.arrayBuffer());
  const half = bytes.subarray(0, Math.floor(bytes.length / 2));
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(half);
      controller.error(new TypeError("terminated"));
    },
  });
  const headers = new Headers(response.headers);
  headers.delete("content-length");
  return new Response(body, { status: response.status, headers });
}

export function faultyFetch(
  inner: (request: Request) => Promise<Response>,
  random: () => number,
  rates: FaultRates,
  counts: FaultCounts = emptyFaultCounts(),
): (request: Request) => Promise<Response> {
  return async (request) => {
    counts.requests++;
    // Whether the server does the work first: a fault after it is the hard case for submissions.
    const late = random() < 0.5;
    let roll = random();
    const pick = (rate: number) => {
      const hit = roll < rate;
      roll -= rate;
      return hit;
    };
    if (pick(rates.kill)) {
      counts.kills++;
      if (late) await (await inner(request)).arrayBuffer();
      throw new SimulatedKill(`process killed at ${request.method} ${new URL(request.url).pathname}`);
    }
    if (pick(rates.rateLimited)) {
      counts.rateLimited++;
      return envelope(429, "rate_limited", "Injected: the key's rate budget is spent.", { "retry-after": "0" });
    }
    if (pick(rates.unavailable)) {
      counts.unavailable++;
      if (late) await (await inner(request)).arrayBuffer();
      return envelope(503, "unavailable", "Injected: service unavailable.", { "retry-after": "0" });
    }
    if (pick(rates.cut)) {
      counts.cut++;
      return cutMidBody(await inner(request));
    }
    return inner(request);
  };
}
