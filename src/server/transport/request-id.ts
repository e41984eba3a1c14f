import { randomFillSync } from "node:crypto";

const alphabet = "0123456789abcdefghijklmnopqrstuvwxyz";
const ID_BYTES = 24;

// NOTE: drawn from a pool refilled 170 ids at a time, as crypto.randomUUID does: one CSPRNG call
// per request was a measurable share of the API's per-request CPU (issue 26).
const pool = Buffer.alloc(ID_BYTES * 170);
let offset = pool.length;

/** `req_` + 24 base36 characters from a CSPRNG: unique enough to quote to support. */
export function newRequestId(): string {
  if (offset + ID_BYTES > pool.length) {
    randomFillSync(pool);
    offset = 0;
  }
  let id = "req_";
  for (let i = offset; i < offset + ID_BYTES; i++) id += alphabet[pool[i]! % 36];
  offset += ID_BYTES;
  return id;
}

export const REQUEST_ID_HEADER = "X-Request-Id";
