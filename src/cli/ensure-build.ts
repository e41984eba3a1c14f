import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";

const SOURCES = ["app", "src", "public", "next.config.js", "package.json", "package-lock.json", "tsconfig.json"];
const SKIP = new Set(["node_modules", ".next", ".data", "generated"]);

function newestMtime(entry: string): number {
  if (!existsSync(entry)) return 0;
  const stat = statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const child of readdirSync(entry)) {
    if (SKIP.has(child) || child.endsWith(".test.ts")) continue;
    newest = Math.max(newest, newestMtime(path.join(entry, child)));
  }
  return newest;
}

/** True when there is no production build, or a source file is newer than it. */
export function buildIsStale(root: string): boolean {
  const buildId = path.join(root, ".next", "BUILD_ID");
  if (!existsSync(buildId)) return true;
  const built = statSync(buildId).mtimeMs;
  return SOURCES.some((source) => newestMtime(path.join(root, source)) > built);
}

/** `npm start` builds when needed, so a fresh clone needs no separate build step. */
export function ensureBuild(root: string, log: (message: string) => void): void {
  if (!buildIsStale(root)) return;
  log("Building the app (first start, or sources changed since the last build)...");
  const result = spawnSync(process.execPath, [path.join(root, "node_modules", "next", "dist", "bin", "next"), "build"], {
    cwd: root,
    stdio: "inherit",
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
  });
  if (result.status !== 0) throw new Error(`next build failed (exit ${result.status ?? result.signal})`);
}
