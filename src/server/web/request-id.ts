import { randomBytes } from "node:crypto";

const alphabet = "0123456789abcdefghijklmnopqrstuvwxyz";

/** `req_` + 24 base36 characters from a CSPRNG: unique enough to quote to support. */
export function newRequestId(): string {
  const bytes = randomBytes(24);
  let id = "req_";
  for (const byte of bytes) id += alphabet[byte % 36];
  return id;
}

export const REQUEST_ID_HEADER = "X-Request-Id";
