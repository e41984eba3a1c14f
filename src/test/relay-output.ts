import { createInterface } from "node:readline";
import type { Readable } from "node:stream";

/**
 * A child process's stderr, line by line, through console.error: what a test's child says while
 * it is killed or refused (a stack trace, an embedded Postgres' FATAL) is shown when the test
 * fails and kept quiet when it passes (D561), where `stdio: "inherit"` printed it always.
 */
export function relayToConsole(stream: Readable | null): void {
  if (stream) createInterface({ input: stream }).on("line", (line) => console.error(line));
}
