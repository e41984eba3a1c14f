import type { Server } from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import next from "next";
import { env, resetEnvCache } from "@/env";
import { loadAuthSecret } from "@/server/auth/secret";
import { prepareDatabase } from "@/server/db/bootstrap";
import { loadEncryptionKey } from "@/server/modules/data-sources/credentials/encryption-key";
import { createPrismaClient } from "@/server/db/client";
import { nodeApiHandler } from "@/server/api/v1/pipeline/api-handler";
import { isDirectApiPath } from "@/server/api/v1/pipeline/direct-api";
import { stopServer } from "@/server/node/graceful-stop";
import { createNodeServer } from "@/server/node/node-server";
import { recordEdgeRefusal } from "@/server/node/record-edge-refusal";
import { closeRequestLogWriter, requestLogWriter } from "@/server/transport/request-log-writer";
import { logger } from "@/server/logger";
import { seedDemoInstance } from "@/server/seed/seed-demo";
import { metrics } from "@/server/metrics/registry";
import { releaseJobsOf } from "@/worker/release-jobs";
import { serveWorkerHealth, type WorkerHealth } from "@/worker/worker-health";
import { ensureBuild } from "./ensure-build";
import { generatedSecretsRefusal } from "@/server/process/production-secrets";
import { onStopSignals } from "@/server/process/stop-signals";
import { superviseWorker, type SupervisedWorker, type WorkerStatus } from "./worker-supervisor";

/**
 * The worker's entry, forked into a process of its own (D310): bundled beside this module under
 * `npm start` (scripts/start.mjs, D329), the TypeScript source under tsx (`npm run dev`, tests).
 */
const WORKER_ENTRY = fileURLToPath(
  import.meta.url.endsWith(".ts") ? new URL("../../worker/forked-worker.ts", import.meta.url) : new URL("./forked-worker.mjs", import.meta.url),
);

/**
 * `npm start`: build when needed → database (embedded unless DATABASE_URL) → migrations →
 * first-run seed → the sync worker in a child process it supervises (D310) → Next on PORT. Ctrl-C
 * stops everything cleanly: a signal drains requests and the worker, then closes the database
 * (D178, D312).
 */
async function main(): Promise<void> {
  const root = process.cwd();
  const dev = process.argv.includes("--dev");
  const config = env();
  const dataDir = path.resolve(root, config.GROUNDWORK_DATA_DIR ?? ".data");
  const say = (message: string) => process.stdout.write(`${message}\n`);

  const refusal = generatedSecretsRefusal(config, dataDir);
  if (refusal) throw new Error(refusal);
  if (!dev) ensureBuild(root, say);

  const database = await prepareDatabase({ dataDir: path.join(dataDir, "postgres"), log: say });
  // Fail fast: a malformed or exposed key stops startup here, not at the first sync. (After the
  // database: the key file's directory is created private, which the postgres user, when we
  // run as root, could then not enter.)
  await loadEncryptionKey(dataDir);
  // Filled in once listening; the signal handlers are installed before that.
  const running: { server?: Server; worker?: SupervisedWorker; workerHealth?: WorkerHealth | null } = {};
  onStopSignals(async () => {
    const deadlineMs = config.GROUNDWORK_SHUTDOWN_TIMEOUT_MS;
    running.workerHealth?.stopping();
    // The HTTP server drains (health 503, no new connections, in-flight requests finish) while
    // the worker process takes no new job and finishes or releases its running pass (D312).
    await Promise.all([
      running.server && stopServer(running.server, { timeoutMs: deadlineMs, log: say }),
      running.worker?.stop({ deadlineMs }).catch((error: unknown) => say(`worker stop failed: ${String(error)}`)),
    ]);
    await running.workerHealth?.close();
    // What the request log still holds is written before the database stops.
    await closeRequestLogWriter().catch((error: unknown) => say(`request log flush failed: ${String(error)}`));
    say("closing the database");
    await database.stop().catch((error: unknown) => say(`Database stop failed: ${String(error)}`));
  }, say);

  process.env.DATABASE_URL = database.url;
  // What start found (D400): the forked worker connects direct, the API's pool keeps no session state behind a pooler.
  process.env.DIRECT_DATABASE_URL = database.directUrl;
  process.env.DATABASE_POOL_MODE = database.poolMode;
  // Dashboard sessions: a secret generated once into the data dir (or NEXTAUTH_SECRET), and the
  // origin next-auth builds redirects from (or they point at the wrong port).
  process.env.NEXTAUTH_SECRET = await loadAuthSecret(dataDir, config.NEXTAUTH_SECRET);
  process.env.NEXTAUTH_URL ??= config.PUBLIC_URL ?? `http://localhost:${config.PORT}`;
  resetEnvCache();

  if (env().GROUNDWORK_SEED === "on") {
    const prisma = createPrismaClient(database.url);
    const seed = await seedDemoInstance(prisma);
    await prisma.$disconnect();
    if (seed.seeded) {
      say("Seeded a demo instance. Sign in to the dashboard with (shown once, keep it):");
      say(`  email:    ${seed.email}`);
      say(`  password: ${seed.password}`);
    }
  }

  if (env().GROUNDWORK_WORKER === "on") {
    // The child reads DATABASE_URL, GROUNDWORK_DATA_DIR and the rest from this environment.
    process.env.GROUNDWORK_DATA_DIR = dataDir;
    const worker = superviseWorker({
      entry: WORKER_ENTRY,
      log: say,
      onChange: countWorker,
      releaseJobs: (workerIds) => releaseJobsOf(database.directUrl, workerIds, (message) => say(`worker: ${message}`)),
    });
    running.worker = worker;
    metrics().relayed = () => worker.collectMetrics();
    running.workerHealth = await serveWorkerHealth(env().GROUNDWORK_WORKER_HEALTH_PORT, say, () => {
      const { state, pid, restarts, lastExit } = worker.status();
      return { ok: state === "running", status: state, pid, restarts, last_exit: lastExit };
    });
  }

  const { PORT: port, HOST: hostname } = env();
  const app = next({ dev, dir: root, hostname, port });
  await app.prepare();
  const handle = app.getRequestHandler();
  // The API skips Next's router (D119); `npm run dev` keeps it, so API edits hot-reload.
  const serveApi = dev ? undefined : nodeApiHandler;
  const httpServer = createNodeServer((req, res) => (serveApi && isDirectApiPath(req.url) ? serveApi(req, res) : handle(req, res)), logger, {
    allowUpgrade: dev,
    dev,
    onRefused: (refusal) => recordEdgeRefusal(requestLogWriter(), refusal),
  });
  running.server = httpServer;
  await new Promise<void>((resolve, reject) => {
    httpServer.once("error", reject);
    httpServer.listen(port, hostname, () => resolve());
  });

  const base = `http://localhost:${port}`;
  say(`Groundwork is up (${database.embedded ? "embedded Postgres" : "DATABASE_URL"}).`);
  say(`  Dashboard: ${base}/`);
  say(`  API base:  ${base}/api/v1`);
  say(`  API docs:  ${base}/docs`);
}

/** The worker process in /metrics: up or not, and how often it was restarted (D311). */
function countWorker(status: WorkerStatus): void {
  const m = metrics();
  m.workerUp.set(status.state === "running" ? 1 : 0);
  if (status.state === "restarting") m.workerRestarts.inc();
}

main().catch((error: unknown) => {
  process.stderr.write(`Groundwork failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
