import { fork, type ChildProcess } from "node:child_process";
import { isFromWorker, type RelayedMetrics, type ToWorker } from "@/worker/forked-protocol";

type WorkerState = "starting" | "running" | "restarting" | "stopping" | "stopped";

export interface WorkerStatus {
  state: WorkerState;
  /** The worker process now, if one is alive. */
  pid: number | null;
  /** Restarts after an unexpected exit since `npm start` began. */
  restarts: number;
  /** How the last worker process ended unexpectedly, e.g. "signal SIGKILL". */
  lastExit: string | null;
}

export interface SupervisorOptions {
  /** The worker's entry module, forked with this process's own loader flags (tsx). */
  entry: string;
  log: (message: string) => void;
  /** Every change of state, for health and metrics. */
  onChange?: (status: WorkerStatus) => void;
  /**
   * After an unexpected exit, before the restart: the graphile workers that held jobs in the dead
   * process, whose jobs would otherwise stay locked for hours (D311).
   */
  releaseJobs?: (workerIds: string[]) => Promise<void>;
}

export interface SupervisedWorker {
  status(): WorkerStatus;
  /**
   * Asks the worker to stop as it would on its own (no new job; a running pass finishes or, past
   * `deadlineMs`, is released), waits for its exit, and kills it if it outlives the deadline by
   * KILL_GRACE_MS. No restart follows.
   */
  stop(options: { deadlineMs: number }): Promise<void>;
  /** The worker process's own metric series; none while it is not running or if it is slow to answer. */
  collectMetrics(timeoutMs?: number): Promise<RelayedMetrics>;
}

/** First restart after 1 s, doubling to 30 s while the worker keeps failing. */
export function restartDelayMs(consecutiveFailures: number): number {
  return Math.min(1000 * 2 ** Math.max(0, consecutiveFailures - 1), 30_000);
}
/** A worker that ran this long before failing counts as a fresh failure, not a crash loop. */
const STABLE_AFTER_MS = 60_000;
/** Past the deadline, the worker's own release of its passes (one query) gets this long. */
const KILL_GRACE_MS = 5_000;

/**
 * Runs the sync worker of `npm start` in a child process (D310) and keeps it running: an
 * unexpected exit is logged and followed by a restart with backoff. The child inherits the
 * environment (DATABASE_URL is the database this process prepared) and the output streams.
 */
export function superviseWorker(options: SupervisorOptions): SupervisedWorker {
  const status: WorkerStatus = { state: "starting", pid: null, restarts: 0, lastExit: null };
  let child: ChildProcess | undefined;
  let restartTimer: NodeJS.Timeout | undefined;
  let failures = 0;
  let exited: Promise<void> = Promise.resolve();
  const metricRequests = new Map<number, (metrics: RelayedMetrics) => void>();
  let nextRequest = 0;
  let busy: string[] = [];
  const change = (patch: Partial<WorkerStatus>) => {
    Object.assign(status, patch);
    options.onChange?.({ ...status });
  };

  const launch = () => {
    const startedAt = Date.now();
    // fork() reuses process.execArgv: the child gets the same loader (tsx) this process runs with.
    const worker = fork(options.entry, [], { stdio: ["ignore", "inherit", "inherit", "ipc"] });
    child = worker;
    change({ state: "starting", pid: worker.pid ?? null });
    worker.on("message", (message) => {
      if (!isFromWorker(message)) return;
      if (message.type === "metrics") return metricRequests.get(message.id)?.(message.metrics);
      if (message.type === "busy") {
        busy = message.workerIds;
        return;
      }
      if (status.state !== "starting") return;
      options.log(`worker: running in its own process (pid ${worker.pid})`);
      change({ state: "running" });
    });
    // A failed fork emits "error" and no "exit"; after a spawn, "exit" always comes.
    exited = new Promise<void>((resolve) => {
      const ended = (how: string) => {
        if (child !== worker) return;
        child = undefined;
        resolve();
        if (status.state === "stopping" || status.state === "stopped") {
          change({ state: "stopped", pid: null });
          return;
        }
        failures = Date.now() - startedAt >= STABLE_AFTER_MS ? 1 : failures + 1;
        const delay = restartDelayMs(failures);
        options.log(`worker: process ${worker.pid ?? "?"} ended unexpectedly (${how}); restarting in ${delay / 1000} s`);
        change({ state: "restarting", pid: null, restarts: status.restarts + 1, lastExit: how });
        const held = busy;
        busy = [];
        const released = held.length > 0 && options.releaseJobs ? options.releaseJobs(held) : Promise.resolve();
        void released
          .catch((error: unknown) => options.log(`worker: could not release the dead process's jobs: ${String(error)}`))
          .then(() => {
            if (status.state === "restarting") restartTimer = setTimeout(launch, delay);
          });
      };
      worker.once("exit", (code, signal) => ended(signal ? `signal ${signal}` : `exit code ${code}`));
      worker.on("error", (error) => {
        if (worker.pid === undefined) ended(`could not start: ${error.message}`);
        else options.log(`worker: ${error.message}`);
      });
    });
  };

  launch();
  let stopping: Promise<void> | undefined;
  return {
    status: () => ({ ...status }),
    collectMetrics(timeoutMs = 2000) {
      const current = child;
      if (!current || status.state !== "running") return Promise.resolve([]);
      const id = nextRequest++;
      return new Promise<RelayedMetrics>((resolve) => {
        const done = (metrics: RelayedMetrics) => {
          clearTimeout(timer);
          metricRequests.delete(id);
          resolve(metrics);
        };
        const timer = setTimeout(() => done([]), timeoutMs);
        metricRequests.set(id, done);
        current.send({ type: "metrics", id } satisfies ToWorker, (error) => error && done([]));
      });
    },
    stop({ deadlineMs }) {
      stopping ??= (async () => {
        clearTimeout(restartTimer);
        const current = child;
        change({ state: "stopping" });
        if (!current) {
          change({ state: "stopped", pid: null });
          return;
        }
        options.log(`worker: asking process ${current.pid} to stop (deadline ${deadlineMs} ms)`);
        current.send({ type: "stop", deadlineMs } satisfies ToWorker, (error) => {
          // The channel is gone: the signal means the same to the worker.
          if (error) current.kill("SIGTERM");
        });
        let killed = false;
        const killTimer = setTimeout(() => {
          options.log(`worker: process ${current.pid} outlived the deadline: killing it`);
          killed = current.kill("SIGKILL");
        }, deadlineMs + KILL_GRACE_MS);
        await exited;
        clearTimeout(killTimer);
        // Killed before it could release its own passes: released here, as after a crash.
        if (killed && busy.length > 0) {
          await options.releaseJobs?.(busy).catch((error: unknown) => options.log(`worker: could not release its jobs: ${String(error)}`));
        }
        options.log("worker: stopped");
      })();
      return stopping;
    },
  };
}
