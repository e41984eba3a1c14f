import { env } from "@/env";
import { getPrisma } from "@/server/db/client";
import { logger } from "@/server/logger";
import { metrics } from "@/server/metrics/registry";
import { ensurePartitionIndexes } from "@/server/modules/request-log/partition-indexes";
import { expireRequestLog } from "@/server/modules/request-log/partitions";
import { createPostgresSink } from "@/server/modules/request-log/postgres-sink";
import { createBufferedWriter, type BufferedWriter } from "@/server/modules/request-log/writer";

const GLOBAL_KEY = Symbol.for("groundwork.requestLogWriter");
const MAINTENANCE_MS = 3_600_000;

/**
 * The process's request log writer, or null when GROUNDWORK_REQUEST_LOG=off. NOTE: on
 * globalThis like the metrics registry: Next's bundles and tsx load separate copies of this
 * module in one process, and `npm start` must flush the one buffer at shutdown.
 */
export function requestLogWriter(): BufferedWriter | null {
  if (env().GROUNDWORK_REQUEST_LOG === "off") return null;
  const holder = globalThis as { [GLOBAL_KEY]?: BufferedWriter };
  holder[GLOBAL_KEY] ??= startWriter();
  return holder[GLOBAL_KEY];
}

/** For the start script's graceful shutdown: writes what is buffered. Safe when none was started. */
export async function closeRequestLogWriter(): Promise<void> {
  const holder = globalThis as { [GLOBAL_KEY]?: BufferedWriter };
  const writer = holder[GLOBAL_KEY];
  if (!writer) return;
  await writer.close();
  delete holder[GLOBAL_KEY];
}

function startWriter(): BufferedWriter {
  const log = logger.child({ component: "request-log" });
  // NOTE: an overflow drops entries one by one; the log says so at most once a second.
  let unlogged = 0;
  let lastLogged = 0;
  const writer = createBufferedWriter(createPostgresSink(getPrisma), {
    onDrop: (count, reason) => {
      metrics().requestLogDropped.inc({ reason }, count);
      unlogged += count;
      if (Date.now() - lastLogged < 1_000) return;
      log.warn({ dropped: unlogged, reason }, "request log entries dropped");
      unlogged = 0;
      lastLogged = Date.now();
    },
    onWriteError: (error, entries) => log.error({ err: error, entries }, "request log batch failed"),
  });
  // Retention runs in every instance; dropping a partition twice is harmless (IF EXISTS).
  // NOTE: getPrisma() inside the chain: without a database URL it throws, and a throw from a
  // timer would end the process (or fail a test run) instead of logging a warning.
  const maintain = () =>
    Promise.resolve()
      .then(() => expireRequestLog(getPrisma(), { retentionDays: env().GROUNDWORK_REQUEST_LOG_RETENTION_DAYS }))
      .then(({ dropped }) => dropped.length > 0 && log.info({ dropped }, "request log partitions expired"))
      .catch((error: unknown) => log.warn({ err: error }, "request log retention failed"))
      // Then the indexes a migration added to the parent since a partition was made (D431).
      .then(() => ensurePartitionIndexes(getPrisma()))
      .then(({ built }) => built.length > 0 && log.info({ built }, "request log partition indexes built"))
      .catch((error: unknown) => log.warn({ err: error }, "request log partition indexes failed"));
  setTimeout(maintain, 10_000).unref();
  setInterval(maintain, MAINTENANCE_MS).unref();
  return writer;
}
