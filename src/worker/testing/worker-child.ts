import { startWorker } from "../start-worker";

/**
 * A sync worker in a process of its own, for tests that kill it. Prints `ready` once it takes
 * jobs and `progress <sourceId> <rowsRead>` after every batch it writes.
 * Usage: node --import tsx worker-child.ts DATABASE_URL DATA_DIR BATCH_SIZE
 */
const [databaseUrl, dataDir, batchSize] = process.argv.slice(2);
if (!databaseUrl || !dataDir) throw new Error("usage: worker-child.ts DATABASE_URL DATA_DIR [BATCH_SIZE]");

await startWorker({
  databaseUrl,
  dataDir,
  concurrency: 1,
  pollInterval: 100,
  batchSize: batchSize ? Number(batchSize) : undefined,
  log: (message) => process.stderr.write(`${message}\n`),
  onBatch: ({ sourceId, rowsRead }) => process.stdout.write(`progress ${sourceId} ${rowsRead}\n`),
});
process.stdout.write("ready\n");
