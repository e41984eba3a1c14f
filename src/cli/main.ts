import type { CliIo } from "./command";
import { runCli } from "./run-cli";

function processIo(): CliIo {
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    // Read only by a command that wants it: opening stdin is left to that moment, as it always was.
    get stdin() {
      return process.stdin;
    },
  };
}

void runCli(process.argv.slice(2), processIo()).then((code) => process.exit(code));
