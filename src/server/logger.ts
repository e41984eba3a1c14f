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
export const logger = createLogger(pino.destination({ dest: 1, sync: false, minLength: 4096, periodicFlush: 250 }));

export type Logger = pino.Logger;

/** The app's logger options over any destination (tests read what it writes). */
export function createLogger(destination: pino.DestinationStream, level = env().LOG_LEVEL): Logger {
  return pino(
    {
      level,
      base: { service: "groundwork" },
      redact: { paths: REDACTED_PATHS, censor: "[redacted]" },
      timestamp: pino.stdTimeFunctions.isoTime,
    },
    destination,
  );
}

/**
 * The same logger without redaction, for a line whose every field the server builds itself from
 * values that cannot hold a secret (the request line: ids, method, path without its query,
 * status, duration). Redaction walks each line for its sixteen paths: about 5 µs, more than the
 * rest of the line (D348). Any other line keeps it.
 */
export function withoutRedaction(log: Logger): Logger {
  return log.child({}, { redact: { paths: [] } });
}
