import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

// "server-only" (D538) throws outside a react-server bundle; tests run server code as Node does.
const alias = {
  "@": fileURLToPath(new URL("./src", import.meta.url)),
  "server-only": fileURLToPath(new URL("./node_modules/server-only/empty.js", import.meta.url)),
};

// A passing test's console output is not shown (D560): what a green run prints is the summary.
// A failing test's output, and its file's, still is; VITEST_LOGS=all shows every test's.
const QUIET = process.env.VITEST_LOGS === "all" ? false : "passed-only";

/**
 * Integration files whose figures hold only with the machine or the Postgres server to themselves:
 * a deadline or a latency (a child's stop within 15 s, a median in milliseconds), or an exact count
 * of rows an xmin pass reads (its horizon is the server's oldest running transaction, in any
 * database, so a neighbour's transaction makes a pass read more: correct, but not the figure).
 */
const ALONE_FILES = [
  "src/server/process/start-worker-process.integration.test.ts",
  "src/server/api/dashboard/hostile-trpc.integration.test.ts",
  "src/worker/worker-stop.integration.test.ts",
  "src/worker/kill-mid-pass.integration.test.ts",
  "src/server/node/shutdown.integration.test.ts",
  "src/server/modules/data-sources/capture/xmin-capture.integration.test.ts",
  "src/server/modules/data-sources/capture/xmin-fallbacks.integration.test.ts",
];

const integration = {
  setupFiles: ["src/test/console-logs.ts"],
  include: ["src/**/*.integration.test.ts"],
  environment: "node" as const,
  globalSetup: ["src/test/global-setup.ts"],
  // Customer databases and the fake CRM run on loopback: the operator setting that allows it.
  env: { GROUNDWORK_ALLOW_PRIVATE_TARGETS: "on" },
  testTimeout: 60_000,
  hookTimeout: 120_000,
};

// Projects: `unit` (pure logic, *.test.ts), `integration` and `integration-alone` (*.integration.test.ts,
// real Postgres; each test file gets its own database cloned from a migrated template), `topology` (npm run
// test:topology only) and `device-sync` (the package's own tests).
export default defineConfig({
  resolve: { alias },
  test: {
    silent: QUIET,
    projects: [
      {
        resolve: { alias },
        test: {
          name: "unit",
          setupFiles: ["src/test/console-logs.ts"],
          include: ["src/**/*.test.ts", "scripts/**/*.test.ts"],
          exclude: ["**/*.integration.test.ts", "**/*.topology.test.ts", "node_modules/**"],
          environment: "node",
        },
      },
      {
        resolve: { alias },
        test: {
          name: "integration",
          // Files side by side (D565): each has a database of its own cloned from the migrated
          // template, and most of their time is spent waiting on Postgres and child processes.
          ...integration,
          exclude: [...ALONE_FILES, "node_modules/**"],
          maxWorkers: 3,
          sequence: { groupOrder: 0 },
        },
      },
      {
        resolve: { alias },
        test: {
          // ALONE_FILES one at a time after the rest (D565): side by side, their deadlines measured
          // the neighbours (D562) and an xmin pass's exact read count saw their transactions.
          name: "integration-alone",
          ...integration,
          include: ALONE_FILES,
          fileParallelism: false,
          sequence: { groupOrder: 1 },
        },
      },
      {
        resolve: { alias },
        test: {
          // `npm run test:topology` (issue 46): its own PostgreSQL, PgBouncer, Redis, haproxy,
          // app instances and workers on loopback; one file, in order.
          name: "topology",
          include: ["scripts/topology/**/*.topology.test.ts"],
          environment: "node",
          env: { GROUNDWORK_ALLOW_PRIVATE_TARGETS: "on" },
          fileParallelism: false,
          testTimeout: 240_000,
          hookTimeout: 300_000,
        },
      },
      {
        // packages/device-sync (D410): its own tests, run by `npm run test:device-sync` after the
        // package is built; those against the real server use the integration project's databases.
        resolve: { alias },
        test: {
          name: "device-sync",
          setupFiles: ["src/test/console-logs.ts"],
          include: ["packages/device-sync/test/**/*.test.ts"],
          environment: "node",
          globalSetup: ["src/test/global-setup.ts"],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
