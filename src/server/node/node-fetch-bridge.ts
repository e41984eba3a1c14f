import type { IncomingMessage, ServerResponse } from "node:http";
import { Readable } from "node:stream";
import { CLIENT_ADDRESS } from "./client-address";

/**
 * A Node request as a Fetch Request, its body streamed, never buffered here: the API pipeline
 * decides whether to read it (after authentication) and how much (the 1 MiB limit).
 */
export function toFetchRequest(req: IncomingMessage): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (typeof value === "string") headers.set(name, value);
    else if (Array.isArray(value)) for (const v of value) headers.append(name, v);
  }
  const hasBody = req.method !== "GET" && req.method !== "HEAD";
  const request = new Request(`http://${req.headers.host ?? "localhost"}${req.url ?? "/"}`, {
    method: req.method,
    headers,
    body: hasBody ? (Readable.toWeb(req) as ReadableStream<Uint8Array>) : undefined,
    duplex: "half",
  } as RequestInit);
  // NOTE: the socket's address, not X-Forwarded-For, which any client can write.
  if (req.socket.remoteAddress) (request as { [CLIENT_ADDRESS]?: string })[CLIENT_ADDRESS] = req.socket.remoteAddress;
  return request;
}

export async function sendFetchResponse(res: ServerResponse, response: Response): Promise<void> {
  for (const [name, value] of response.headers) res.setHeader(name, value);
  res.writeHead(response.status);
  res.end(Buffer.from(await response.arrayBuffer()));
}

/** A Fetch handler as a node:http one. */
export function fromFetchHandler(handler: (req: Request) => Promise<Response>): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  return async (req, res) => sendFetchResponse(res, await handler(toFetchRequest(req)));
}
