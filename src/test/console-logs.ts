import pino from "pino";
import { logger } from "@/server/logger";

// A vitest setup file (D561). The app's logger writes to file descriptor 1 itself (D331), past the
// runner's capture of console output, so a green run printed every expected log line: a failing
// sync's error, an export cut for a stalled client. Under the runner its lines go through
// console.log instead, which vitest shows for a failing test (and its file) and keeps quiet for a
// passing one (silent: "passed-only" in vitest.config.ts; VITEST_LOGS=all shows them all).
// Child loggers read the stream through their parent, so one assignment covers them.
const stream: pino.DestinationStream = { write: (line: string) => console.log(line.trimEnd()) };
(logger as unknown as Record<symbol, pino.DestinationStream>)[pino.symbols.streamSym] = stream;
