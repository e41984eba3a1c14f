/**
 * SIGTERM / SIGINT for a long-running process (D178): the first signal runs `stop` (drain, then
 * close) and exits 0 when it is done, 1 if it fails; a second signal exits at once (1). Each
 * step is logged through `say`.
 */
export function onStopSignals(stop: (signal: NodeJS.Signals) => Promise<void>, say: (message: string) => void): void {
  let stopping = false;
  const handle = (signal: NodeJS.Signals) => {
    if (stopping) {
      say(`${signal} received again: exiting now without waiting.`);
      process.exit(1);
    }
    stopping = true;
    say(`${signal} received: stopping (a second signal exits at once).`);
    stop(signal).then(
      () => {
        say("stopped.");
        process.exit(0);
      },
      (error: unknown) => {
        say(`stop failed: ${error instanceof Error ? error.message : String(error)}`);
        process.exit(1);
      },
    );
  };
  process.on("SIGINT", handle);
  process.on("SIGTERM", handle);
}
