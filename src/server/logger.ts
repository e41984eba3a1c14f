import pino from "pino";
import { env } from "@/env";

/**
 * Structured JSON logs. Redaction is a second line of defence: code must never pass a
 * plaintext token or credential to the logger in the first place.
 */
export const logger = pino({
  level: env().LOG_LEVEL,
  base: { service: "groundwork" },
  redact: {
    paths: [
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
    ],
    censor: "[redacted]",
  },
  timestamp: pino.stdTimeFunctions.isoTime,
});

export type Logger = typeof logger;
