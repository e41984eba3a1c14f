import { Logger, makeWorkerUtils, type LogFunctionFactory } from "graphile-worker";

/**
 * Unlocks the jobs held by these graphile workers, what graphile-worker itself does for crashed
 * workers (only after hours): any worker takes them again at once (D179, D311). Only for workers
 * known to be gone or about to be: their process stopped past its deadline, or died.
 */
export async function releaseJobsOf(databaseUrl: string, workerIds: string[], log: (message: string) => void): Promise<void> {
  if (workerIds.length === 0) return;
  const utils = await makeWorkerUtils({ connectionString: databaseUrl, logger: new Logger(graphileLog(log)) });
  try {
    await utils.forceUnlockWorkers(workerIds);
  } finally {
    await utils.release();
  }
  log(`released the jobs of ${workerIds.length} busy worker(s)`);
}

/** graphile-worker's own chatter below warnings is dropped; job failures and warnings pass. */
export function graphileLog(log: (message: string) => void): LogFunctionFactory {
  return () => (level, message) => {
    if (level === "error" || level === "warning") log(`worker ${level}: ${message}`);
  };
}
