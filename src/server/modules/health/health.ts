import { readFileSync } from "node:fs";
import path from "node:path";
import { execFileSync } from "node:child_process";

export interface BuildInfo {
  version: string;
  commit: string;
}

let buildInfo: BuildInfo | undefined;

/**
 * `version` from package.json; `commit` from GROUNDWORK_COMMIT (set by CI or the build),
 * else from git, else "unknown". Read once: neither changes while the process runs.
 */
export function getBuildInfo(commitFromEnv: string | undefined, root = process.cwd()): BuildInfo {
  buildInfo ??= { version: readVersion(root), commit: commitFromEnv ?? readGitCommit(root) ?? "unknown" };
  return buildInfo;
}

function readVersion(root: string): string {
  try {
    const pkg = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as { version?: string };
    return pkg.version ?? "unknown";
  } catch {
    return "unknown";
  }
}

function readGitCommit(root: string): string | undefined {
  try {
    const sha = execFileSync("git", ["rev-parse", "HEAD"], { cwd: root, stdio: ["ignore", "pipe", "ignore"], timeout: 2000 })
      .toString()
      .trim();
    return /^[0-9a-f]{40}$/.test(sha) ? sha : undefined;
  } catch {
    return undefined;
  }
}

export type HealthReport =
  | { status: "ok"; db_latency_ms: number; version: string; commit: string }
  | { status: "degraded"; db_latency_ms: number | null; version: string; commit: string };

export type DatabasePing = () => Promise<{ ok: true; latencyMs: number } | { ok: false; reason: string }>;

export async function checkHealth(ping: DatabasePing, build: BuildInfo): Promise<HealthReport> {
  const result = await ping();
  if (result.ok) return { status: "ok", db_latency_ms: Math.round(result.latencyMs), ...build };
  return { status: "degraded", db_latency_ms: null, ...build };
}
