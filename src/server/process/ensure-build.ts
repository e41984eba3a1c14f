import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";

const SOURCES = ["app", "src", "public", "next.config.js", "package.json", "package-lock.json", "tsconfig.json"];
const SKIP = new Set(["node_modules", ".next", ".data", "generated"]);

/** The one line a start prints while Next builds (D490). */
export const BUILD_PROGRESS_LINE = "Building the dashboard (first start only, about 2 minutes)…";
/** Where the build's own output is kept (success or not), for whoever wants the details. */
export const BUILD_LOG = path.join(".next", "groundwork-build.log");

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
function buildIsStale(root: string): boolean {
  const buildId = path.join(root, ".next", "BUILD_ID");
  if (!existsSync(buildId)) return true;
  const built = statSync(buildId).mtimeMs;
  return SOURCES.some((source) => newestMtime(path.join(root, source)) > built);
}

export interface EnsureBuildOptions {
  /** The Next CLI to run (tests give a stand-in). */
  nextBin?: string;
  /** Where the line goes; `log` prints whole lines, this one may leave a line open. Default: stdout. */
  write?: (text: string) => void;
}

/**
 * `npm start` builds when needed, so a fresh clone needs no separate build step. NOTE (D490): Next's
 * own output (banner, telemetry notice, route table, colours) is captured, not shown: the person
 * starting the service sees one line that says what happens and how long it takes, completed with
 * the time it took. A failed build prints everything Next said, in full, then stops the start. The
 * output of the last build is kept in .next/groundwork-build.log either way.
 */
export function ensureBuild(root: string, log: (message: string) => void, options: EnsureBuildOptions = {}): void {
  if (!buildIsStale(root)) return;
  const write = options.write ?? ((text: string) => process.stdout.write(text));
  write(BUILD_PROGRESS_LINE);
  const started = Date.now();
  const nextBin = options.nextBin ?? path.join(root, "node_modules", "next", "dist", "bin", "next");
  const result = spawnSync(process.execPath, [nextBin, "build"], {
    cwd: root,
    stdio: ["ignore", "pipe", "pipe"],
    encoding: "utf8",
    maxBuffer: 256 * 1024 * 1024,
    // NO_COLOR: the output is kept in a file and, on failure, printed where colours may not be read.
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1", NO_COLOR: "1", FORCE_COLOR: "0" },
  });
  const output = `${result.stdout ?? ""}${result.stderr ?? ""}`;
  const seconds = Math.round((Date.now() - started) / 1000);
  try {
    writeFileSync(path.join(root, BUILD_LOG), output);
  } catch {
    // No .next directory (the build failed before creating it): the output is printed below.
  }
  if (result.status === 0) {
    write(` done in ${seconds < 60 ? `${seconds} s` : `${Math.floor(seconds / 60)} min ${seconds % 60} s`}.\n`);
    return;
  }
  write(" failed. Next's output:\n");
  log(output.trimEnd() || String(result.error ?? "(no output)"));
  throw new Error(`next build failed (exit ${result.status ?? result.signal ?? result.error?.message})`);
}
