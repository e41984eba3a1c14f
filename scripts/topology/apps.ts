import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { freePort, portAnswers, startChild, waitFor, type Child } from "./processes";
import type { DataTier } from "./cluster";

// The stateless tier of the topology test: app instances (npm start, GROUNDWORK_WORKER=off) behind
// Debian's haproxy with health checks, and `npm run worker` processes on direct connections.

export interface Shared {
  repoRoot: string;
  root: string;
  logDir: string;
  data: DataTier;
  /** What every instance shares: cursor key, session secret, encryption key, metrics token. */
  secrets: Record<string, string>;
}

export function sharedSecrets(): Record<string, string> {
  return {
    GROUNDWORK_CURSOR_SECRET: randomBytes(32).toString("hex"),
    NEXTAUTH_SECRET: randomBytes(32).toString("hex"),
    GROUNDWORK_ENCRYPTION_KEY: randomBytes(32).toString("hex"),
    GROUNDWORK_METRICS_TOKEN: randomBytes(16).toString("hex"),
  };
}

function baseEnv(shared: Shared, name: string): NodeJS.ProcessEnv {
  const dataDir = path.join(shared.root, name);
  mkdirSync(dataDir, { recursive: true });
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NODE_ENV: "production",
    NEXT_TELEMETRY_DISABLED: "1",
    GROUNDWORK_DATA_DIR: dataDir,
    GROUNDWORK_SEED: "off",
    GROUNDWORK_ALLOW_PRIVATE_TARGETS: "on",
    GROUNDWORK_SHUTDOWN_TIMEOUT_MS: "20000",
    LOG_LEVEL: "warn",
    ...shared.secrets,
  };
}

export interface AppInstance {
  name: string;
  port: number;
  child: Child;
  /** SIGTERM (drain) and wait for the exit, then start again on the same port and wait for health. */
  restart(): Promise<{ stoppedMs: number; upMs: number }>;
  stop(): Promise<void>;
}

export async function startApp(shared: Shared, name: string, env: Record<string, string> = {}): Promise<AppInstance> {
  const port = await freePort();
  const launch = () =>
    startChild(name, process.execPath, ["--max-semi-space-size=32", "scripts/start.mjs"], {
      logDir: shared.logDir,
      cwd: shared.repoRoot,
      env: {
        ...baseEnv(shared, name),
        PORT: String(port),
        HOST: "127.0.0.1",
        DATABASE_URL: shared.data.pooledUrl,
        DIRECT_DATABASE_URL: shared.data.primaryUrl,
        GROUNDWORK_WORKER: "off",
        REDIS_URL: shared.data.redisUrl,
        GROUNDWORK_TRUSTED_PROXIES: "127.0.0.1",
        ...env,
      },
    });
  const healthy = () =>
    waitFor(
      `${name} healthy`,
      async () => ((await fetch(`http://127.0.0.1:${port}/api/v1/health`).catch(() => undefined))?.status === 200 ? true : undefined),
      120_000,
      250,
    );
  const instance: AppInstance = {
    name,
    port,
    child: launch(),
    async restart() {
      const started = Date.now();
      await instance.child.stop(30_000);
      const stoppedMs = Date.now() - started;
      instance.child = launch();
      await healthy();
      return { stoppedMs, upMs: Date.now() - started };
    },
    stop: () => instance.child.stop(30_000),
  };
  await healthy().catch(async (error: unknown) => {
    await instance.stop();
    throw error;
  });
  return instance;
}

export async function startWorkerProcess(shared: Shared, name: string): Promise<Child> {
  // node + tsx directly (what `npm run worker` runs), so the pid is the worker's own for kill -9.
  const child = startChild(name, process.execPath, ["--import", "tsx", "src/worker/main.ts"], {
    logDir: shared.logDir,
    cwd: shared.repoRoot,
    env: { ...baseEnv(shared, name), DATABASE_URL: shared.data.primaryUrl, GROUNDWORK_SYNC_TICK_SECONDS: "5" },
  });
  const log = path.join(shared.logDir, `${name}.log`);
  await waitFor(`${name} running`, async () => (readFileSync(log, "utf8").includes("Sync worker running") ? true : undefined), 120_000, 250).catch(
    async (error: unknown) => {
      await child.stop();
      throw error;
    },
  );
  return child;
}

export interface Balancer {
  url: string;
  child: Child;
}

/**
 * haproxy: round robin over the instances, health-checked on /api/v1/health every second (every
 * 500 ms while changing state; two failures take an instance out, two successes bring it back);
 * a request whose connection fails is retried on the other instance (what a balancer in front of
 * a rolling restart is set up to do).
 */
export async function startBalancer(shared: Shared, apps: AppInstance[]): Promise<Balancer> {
  const port = await freePort();
  const config = path.join(shared.root, "haproxy.cfg");
  writeFileSync(
    config,
    [
      "global",
      "  maxconn 2000",
      "defaults",
      "  mode http",
      "  timeout connect 2s",
      "  timeout client 60s",
      "  timeout server 60s",
      "  timeout http-keep-alive 10s",
      "  retries 3",
      "  option redispatch 1",
      // A check answered slowly on a loaded machine must not take a healthy instance out.
      "  timeout check 3s",
      "  retry-on conn-failure empty-response response-timeout",
      "frontend api",
      `  bind 127.0.0.1:${port}`,
      "  default_backend apps",
      "backend apps",
      "  balance roundrobin",
      // HTTP/1.1 with a Host: the app answers a bare HTTP/1.0 check 400.
      "  option httpchk",
      "  http-check send meth GET uri /api/v1/health ver HTTP/1.1 hdr Host localhost",
      "  http-check expect status 200",
      "  default-server inter 1s fastinter 500ms downinter 500ms fall 2 rise 2",
      ...apps.map((app) => `  server ${app.name} 127.0.0.1:${app.port} check`),
      "",
    ].join("\n"),
  );
  const child = startChild("haproxy", "/usr/sbin/haproxy", ["-db", "-f", config], { logDir: shared.logDir });
  await waitFor("haproxy", () => portAnswers(port), 20_000);
  return { url: `http://127.0.0.1:${port}`, child };
}
