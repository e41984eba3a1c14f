import path from "node:path";
import { env } from "@/env";
import { prepareDatabase } from "@/server/db/bootstrap";
import { generatedSecretsRefusal } from "@/server/process/production-secrets";
import { onStopSignals } from "@/server/process/stop-signals";
import { startWorker } from "./start-worker";
import { serveWorkerHealth } from "./worker-health";

/**
 * `npm run worker`: sync workers alone, on DATABASE_URL or the embedded database, for
 * deployments that run them apart from the web server. Several may run at once.
 */
async function main(): Promise<void> {
  const say = (message: string) => process.stdout.write(`${message}\n`);
  const dataDir = path.resolve(env().GROUNDWORK_DATA_DIR ?? ".data");
  // The worker decrypts connector credentials; it signs no cursor and no session.
  const refusal = generatedSecretsRefusal(env(), dataDir, { uses: ["GROUNDWORK_ENCRYPTION_KEY"] });
  if (refusal) throw new Error(refusal);
  const database = await prepareDatabase({ dataDir: path.join(dataDir, "postgres"), log: say });
  let worker;
  try {
    // The worker needs sessions (LISTEN, advisory locks, CDC): the direct URL, never a pooler (D400).
    worker = await startWorker({ databaseUrl: database.directUrl, log: say, dataDir, concurrency: workerConcurrency() });
  } catch (error) {
    await database.stop();
    throw error;
  }
  say(`Sync worker running (${database.embedded ? "embedded Postgres" : "DATABASE_URL"}); Ctrl-C stops it.`);

  const health = await serveWorkerHealth(env().GROUNDWORK_WORKER_HEALTH_PORT, say);
  onStopSignals(async () => {
    health?.stopping();
    await worker.stop({ deadlineMs: env().GROUNDWORK_SHUTDOWN_TIMEOUT_MS }).catch((error: unknown) => say(`Worker stop failed: ${String(error)}`));
    await health?.close();
    say("closing the database");
    await database.stop().catch((error: unknown) => say(`Database stop failed: ${String(error)}`));
  }, say);
}

/** `npm run worker -- --concurrency 4`; the default suits a small machine. */
function workerConcurrency(): number | undefined {
  const index = process.argv.indexOf("--concurrency");
  if (index < 0) return undefined;
  const value = Number(process.argv[index + 1]);
  if (!Number.isInteger(value) || value < 1) throw new Error("--concurrency must be a positive whole number");
  return value;
}

main().catch((error: unknown) => {
  process.stderr.write(`The worker failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
