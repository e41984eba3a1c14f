import pino from "pino";
import { env } from "@/env";

const REDACTED_PATHS = [
  "authorization",
  "*.authorization",
  "headers.authorization",
  "*.headers.authorization",
  "token",
  "*.token",
  "password",
  "*.password",
  "secret",
  "*.secret",
  "clientSecret",
  "*.clientSecret",
  "connectionUrl",
  "*.connectionUrl",
];

/**
 * Structured JSON logs. Redaction is a second line of defence: code must never pass a
 * plaintext token or credential to the logger in the first place.
 * NOTE: lines are buffered and written 4 KB at a time, or every 250 ms on a quiet server, off the
 * request path (D331): a write per line cost every API request a system call, about a sixth of
 * the /api/v1 pipeline's CPU. What is buffered at exit is written then (pino registers that for
 * an asynchronous destination); a process killed outright loses at most the last quarter second.
 */
export const logger = pino(
  {
    level: env().LOG_LEVEL,
    base: { service: "groundwork" },
    redact: { paths: REDACTED_PATHS, censor: "[redacted]" },
    timestamp: pino.stdTimeFunctions.isoTime,
  },
  pino.destination({ dest: 1, sync: false, minLength: 4096, periodicFlush: 250 }),
);

export type Logger = typeof logger;
