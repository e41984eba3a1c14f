import type { IncomingMessage, ServerResponse } from "node:http";
import { clientAddressOf } from "@/server/node/client-address";

/** Reads one request header by lower-case name (several values joined by ", ", as Fetch does). */
interface HeaderReader {
  get(name: string): string | null;
}

/**
 * A request as the /api/v1 pipeline reads it, whatever carried it: node:http under `npm start`
 * (no Fetch objects are made on that path, issue 26) or a Fetch Request (the Next route of a plain
 * `next start`, in-process tests). The body is read only if and when the pipeline decides to.
 */
export interface ApiRequest {
  method: string;
  /** Path and query as received, e.g. `/api/v1/organizations?limit=5`. */
  url: string;
  headers: HeaderReader;
  body: AsyncIterable<Uint8Array> | null;
  /** The peer's socket address (never X-Forwarded-For, which any client can write). */
  clientAddress: string | null;
}

/** The pipeline's answer: written to a node:http response or wrapped in a Fetch Response. */
export interface ApiAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export function fromNodeRequest(req: IncomingMessage): ApiRequest {
  const headers = req.headers;
  const method = req.method ?? "GET";
  return {
    method,
    url: req.url ?? "/",
    headers: {
      get: (name) => {
        const value = headers[name];
        if (value === undefined) return null;
        return Array.isArray(value) ? value.join(", ") : value;
      },
    },
    body: method === "GET" || method === "HEAD" ? null : req,
    clientAddress: req.socket.remoteAddress ?? null,
  };
}

export function sendNodeAnswer(res: ServerResponse, answer: ApiAnswer, method: string): void {
  res.writeHead(answer.status, { ...answer.headers, "Content-Length": Buffer.byteLength(answer.body) });
  res.end(method === "HEAD" ? undefined : answer.body);
}

export function fromFetchRequest(req: Request): ApiRequest {
  const url = new URL(req.url);
  return {
    method: req.method,
    url: `${url.pathname}${url.search}`,
    headers: req.headers,
    body: req.body ? streamChunks(req.body) : null,
    clientAddress: clientAddressOf(req),
  };
}

export function toFetchResponse(answer: ApiAnswer): Response {
  return new Response(answer.body, { status: answer.status, headers: answer.headers });
}

/** A Fetch body stream as an iterable; leaving the loop early (a body over the limit) cancels it. */
async function* streamChunks(stream: ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array> {
  const reader = stream.getReader();
  try {
    for (;;) {
      const chunk = await reader.read();
      if (chunk.done) return;
      yield chunk.value;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}
