import os from "node:os";
import path from "node:path";
import { env } from "@/env";
import { metrics } from "@/server/metrics/registry";
import { isToWorker, RELAYED_METRIC_PREFIX, type FromWorker } from "./forked-protocol";
import { startWorker, type RunningWorker } from "./start-worker";

/**
 * The sync worker of `npm start`, in a process of its own (D310): forked by src/server/process/start-server.ts
 * through src/server/process/worker-supervisor.ts, on the database the parent prepared (DATABASE_URL). It
 * never starts a database itself, and it lives only as long as its parent: the IPC channel
 * closing (the parent died, even by SIGKILL) releases its passes and ends it.
 */
const say = (message: string) => process.stdout.write(`worker: ${message}\n`);

// Passes are background work: when the two processes want the same core, the API's requests go
// first (D310). Set before the worker starts, so the threads started later (libuv's pool) inherit it.
const NICER_BY = 10;
try {
  os.setPriority(0, Math.min(19, os.getPriority(0) + NICER_BY));
} catch (error) {
  say(`could not lower this process's priority: ${error instanceof Error ? error.message : String(error)}`);
}

function refuse(reason: string): never {
  process.stderr.write(`worker: ${reason}\n`);
  process.exit(2);
}

if (!process.send) refuse("this entry is forked by `npm start`; run `npm run worker` for a worker on its own");
// Sessions (LISTEN, advisory locks, CDC) need PostgreSQL itself, not a pooler (D400).
const databaseUrl = env().DIRECT_DATABASE_URL ?? env().DATABASE_URL;
// NOTE: no fallback to prepareDatabase(): a second embedded Postgres on the parent's data
// directory is exactly what must never happen.
if (!databaseUrl) refuse("DATABASE_URL is not set (the parent passes the database it started)");

let worker: RunningWorker | undefined;
let stopping: Promise<void> | undefined;

/**
 * Stops once, whoever asks first (the parent, a signal, or the parent's disappearance). Asked
 * while still starting, it exits at once: no pass can be running yet.
 */
function stop(deadlineMs: number, why: string): void {
  if (stopping) return;
  say(`stopping (${why})`);
  stopping = (async () => {
    await worker?.stop({ deadlineMs }).catch((error: unknown) => say(`stop failed: ${String(error)}`));
    process.exit(0);
  })();
}

process.on("message", (message) => {
  if (!isToWorker(message)) return;
  if (message.type === "stop") return stop(message.deadlineMs, "asked by npm start");
  // The pass counters live here, where the passes run; npm start's /metrics asks for them (D311).
  void metrics()
    .registry.getMetricsAsJSON()
    .then((all) =>
      process.send?.({ type: "metrics", id: message.id, metrics: all.filter((m) => m.name.startsWith(RELAYED_METRIC_PREFIX)) } satisfies FromWorker),
    );
});
// The parent is gone: nobody will ask us to stop, and nobody would restart us. Release the
// running passes to another worker at once (their transactions roll back) and exit.
process.on("disconnect", () => stop(0, "npm start is gone"));
// Ctrl-C reaches the whole process group: the parent orders the stop, so SIGINT is ignored here.
process.on("SIGINT", () => undefined);
process.on("SIGTERM", () => stop(env().GROUNDWORK_SHUTDOWN_TIMEOUT_MS, "SIGTERM"));

const dataDir = path.resolve(env().GROUNDWORK_DATA_DIR ?? ".data");
try {
  worker = await startWorker({
    databaseUrl,
    log: say,
    dataDir,
    onBusyWorkers: (workerIds) => process.send?.({ type: "busy", workerIds } satisfies FromWorker),
  });
} catch (error) {
  refuse(`failed to start: ${error instanceof Error ? error.message : String(error)}`);
}
process.send?.({ type: "ready" } satisfies FromWorker);
