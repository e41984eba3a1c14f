import { AppError } from "@/server/errors/app-error";
import { findUnstorable } from "@/server/lib/storable-json";
import { unstorableError } from "./unstorable-input";

/** Request bodies above this are refused with 413 before they are buffered. */
export const MAX_BODY_BYTES = 1024 * 1024;

export interface RawBody {
  /** The exact bytes the client sent (idempotency fingerprints hash these). */
  bytes: Uint8Array<ArrayBuffer>;
  text: string;
  /** The parsed body of a POST, PUT or PATCH that carried one (parsed once, here). */
  json?: unknown;
}

const BODY_METHODS = new Set(["POST", "PUT", "PATCH"]);

export function methodTakesBody(method: string): boolean {
  return BODY_METHODS.has(method.toUpperCase());
}

/** What reading a body needs of a request (an ApiRequest, api-request.ts). */
export interface BodySource {
  method: string;
  headers: { get(name: string): string | null };
  body: AsyncIterable<Uint8Array> | null;
}

/**
 * Reads the body once, bounded, and checks it is JSON (and storable) when the method carries one.
 * NOTE: a request without a body stream (a GET on node:http) gets its empty body back without a
 * promise: every await on the API's hot path is a promise the process's async hooks see (D354).
 */
export function readRawBody(req: BodySource, maxBytes = MAX_BODY_BYTES): RawBody | Promise<RawBody> {
  const declared = Number(req.headers.get("content-length") ?? "NaN");
  if (Number.isFinite(declared) && declared > maxBytes) throw tooLarge(maxBytes);
  return req.body === null ? EMPTY_BODY : readStreamedBody(req, maxBytes);
}

async function readStreamedBody(req: BodySource, maxBytes: number): Promise<RawBody> {
  const bytes = await readBounded(req.body, maxBytes);
  if (bytes.length === 0) return EMPTY_BODY;
  const text = new TextDecoder("utf-8").decode(bytes);
  if (methodTakesBody(req.method)) return { bytes, text, json: parseJsonBody(req.headers, text) };
  return { bytes, text };
}

const EMPTY_BODY: RawBody = Object.freeze({ bytes: new Uint8Array(0), text: "" });

async function readBounded(body: AsyncIterable<Uint8Array> | null, maxBytes: number): Promise<Uint8Array<ArrayBuffer>> {
  if (!body) return new Uint8Array(0);
  const iterator = body[Symbol.asyncIterator]();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    let chunk: IteratorResult<Uint8Array>;
    try {
      chunk = await iterator.next();
    } catch (error) {
      throw clientAborted(error);
    }
    if (chunk.done) break;
    total += chunk.value.byteLength;
    if (total > maxBytes) {
      // Ends the stream: a Fetch body is cancelled, a node:http request destroyed.
      await iterator.return?.();
      throw tooLarge(maxBytes);
    }
    chunks.push(chunk.value);
  }
  if (chunks.length === 1) return new Uint8Array(chunks[0]!.buffer as ArrayBuffer, chunks[0]!.byteOffset, total);
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

/**
 * The body as it arrives, for a handler that parses it as a stream (the dashboard's CSV upload,
 * D162): refused with 413 as soon as a declared Content-Length, or the bytes read so far, pass
 * `maxBytes`, never after buffering the whole body. Leaving the loop early cancels the stream.
 */
export async function* boundedBodyChunks(req: Request, maxBytes: number): AsyncGenerator<Uint8Array> {
  const declared = Number(req.headers.get("content-length") ?? "NaN");
  if (Number.isFinite(declared) && declared > maxBytes) throw tooLarge(maxBytes);
  if (!req.body) return;
  const reader = req.body.getReader();
  let total = 0;
  try {
    for (;;) {
      let chunk: ReadableStreamReadResult<Uint8Array>;
      try {
        chunk = await reader.read();
      } catch (error) {
        throw clientAborted(error);
      }
      if (chunk.done) return;
      total += chunk.value.byteLength;
      if (total > maxBytes) throw tooLarge(maxBytes);
      yield chunk.value;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}

function parseJsonBody(headers: BodySource["headers"], text: string): unknown {
  const contentType = headers.get("content-type") ?? "";
  const mediaType = contentType.split(";")[0]?.trim().toLowerCase();
  if (mediaType !== "application/json") {
    throw new AppError(
      "unsupported_media_type",
      contentType ? `Content-Type "${contentType}" is not supported; send application/json.` : "Missing Content-Type header; send application/json.",
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new AppError("bad_request", "The request body is not valid JSON.");
  }
  const unstorable = findUnstorable(parsed);
  if (unstorable !== null) throw unstorableError(unstorable);
  return parsed;
}

function tooLarge(maxBytes: number): AppError {
  return new AppError("payload_too_large", `The request body exceeds the limit of ${maxBytes} bytes.`, {
    details: { limit_bytes: maxBytes },
  });
}

/**
 * The body stream failed: the client went away (or broke the framing) mid-upload. Its fault, not
 * ours: a 400 it will never read, logged as a client abort (`isClientAbort`), never as a 500.
 */
function clientAborted(cause: unknown): AppError {
  return new AppError("bad_request", "The request body ended before it was complete.", {
    details: { reason: CLIENT_ABORTED },
    cause,
  });
}

const CLIENT_ABORTED = "client_aborted";

export function isClientAbort(error: AppError): boolean {
  return error.details?.reason === CLIENT_ABORTED;
}
