import { defineConfig } from "@playwright/test";

const port = Number(process.env.E2E_PORT ?? 3100);
const baseURL = `http://127.0.0.1:${port}`;
/** The bearer token of GET /metrics on the app under test. */
export const E2E_METRICS_TOKEN = "e2e-metrics-token-0123456789";
/**
 * The mail relay of the app under test (D477): a port nothing listens on unless a test starts a
 * real SMTP server there (e2e/ui/invitations.spec.ts); otherwise a send is refused at once.
 */
export const E2E_SMTP_PORT = port + 1000;

// NOTE: browsers are never downloaded here: Debian's Chromium (or CHROMIUM_PATH) is driven
// with the flags this network needs (no sandbox as root, no background networking).
export default defineConfig({
  testDir: "e2e",
  // Two spec files at a time against the one app (D566): most of a test's time is spent waiting on
  // a pass or a page, and every spec builds its own organization. Tests of one file run in order.
  // Checks of instance-wide figures allow for the other worker. E2E_WORKERS=1 runs one at a time.
  fullyParallel: false,
  workers: Number(process.env.E2E_WORKERS ?? 2),
  retries: 0,
  timeout: 60_000,
  reporter: [["list"], ["json", { outputFile: "reports/e2e.json" }]],
  use: {
    baseURL,
    trace: "retain-on-failure",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
  },
  projects: [
    { name: "api", testDir: "e2e/api" },
    { name: "ui", testDir: "e2e/ui", use: { browserName: "chromium" } },
  ],
  webServer: {
    // A fresh database per run; the seeded owner's one-time password lands in .data/e2e/start.log.
    command: "bash scripts/e2e-server.sh",
    url: `${baseURL}/api/v1/health`,
    timeout: 240_000,
    reuseExistingServer: false,
    // start-server.ts stops its embedded Postgres on SIGTERM; a SIGKILL would leave it running. So the
    // wait covers start-server.ts's worst case: the worker's drain (GROUNDWORK_SHUTDOWN_TIMEOUT_MS,
    // 20 s) plus its kill grace (5 s), then the database's stop. scripts/e2e-server.sh holds
    // Playwright's pipe open until start-server.ts has exited, so an ordinary stop ends in about 1 s.
    gracefulShutdown: { signal: "SIGTERM", timeout: 60_000 },
    stdout: "pipe",
    stderr: "pipe",
    env: {
      PORT: String(port),
      HOST: "127.0.0.1",
      GROUNDWORK_DATA_DIR: ".data/e2e",
      LOG_LEVEL: "warn",
      // next-auth builds its redirects from this origin (D65).
      NEXTAUTH_URL: baseURL,
      GROUNDWORK_METRICS_TOKEN: E2E_METRICS_TOKEN,
      // The sources tests' customer tables are on a second embedded server on loopback (D113).
      GROUNDWORK_ALLOW_PRIVATE_TARGETS: "on",
      // e2e/api/nginx-proxy.spec.ts: nginx reaches the app from 127.0.0.5 and only it is believed.
      GROUNDWORK_TRUSTED_PROXIES: "127.0.0.5",
      // The lifecycle tests pause a source with a 5 s schedule: the scheduler ticks that often too.
      GROUNDWORK_SYNC_TICK_SECONDS: "5",
      // A download whose client reads nothing is cut after 5 s instead of 30 (e2e/ui/export-stall.spec.ts).
      GROUNDWORK_EXPORT_STALL_TIMEOUT_MS: "5000",
      GROUNDWORK_SMTP_URL: `smtp://127.0.0.1:${E2E_SMTP_PORT}`,
      GROUNDWORK_SMTP_FROM: "Groundwork <groundwork@e2e.test>",
    },
  },
});
