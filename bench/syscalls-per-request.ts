import { spawn } from "node:child_process";
import { runLoad, type Target } from "./load";
import { startAppAndBaseline } from "./cpu-per-request";

/**
 * `node --import tsx bench/syscalls-per-request.ts [rows] [seconds] [connections]`: the system
 * calls each server makes per rows page (`strace -c -f` attached for one load), `npm start`
 * against the bare baseline, to see whether the app writes or wakes more often than it needs.
 */
const rows = Number(process.argv[2] ?? 100_000);
const seconds = Number(process.argv[3] ?? 5);
const connections = Number(process.argv[4] ?? 16);

async function traced(target: Target, pid: number): Promise<string> {
  const strace = spawn("strace", ["-c", "-f", "-p", String(pid)], { stdio: ["ignore", "ignore", "pipe"] });
  let report = "";
  strace.stderr.on("data", (chunk: Buffer) => (report += chunk.toString()));
  await new Promise((resolve) => setTimeout(resolve, 500));
  const load = await runLoad(target, { connections, seconds, limit: 100 });
  strace.kill("SIGINT");
  await new Promise((resolve) => strace.once("exit", resolve));
  const lines = report.split("\n").filter((line) => /^\s*[\d.]+\s+[\d.]+\s+\d+\s+\d+/.test(line));
  const perRequest = lines.map((line) => {
    const fields = line.trim().split(/\s+/);
    const calls = Number(fields[3]);
    return `${fields[fields.length - 1]} ${(calls / load.requests).toFixed(2)}`;
  });
  return `${load.requests} requests: ${perRequest.join(", ")}`;
}

const { app, baseline, gw, base, stopAll } = await startAppAndBaseline("gw_sys", rows, [4941, 4942]);
try {
  await runLoad(gw, { connections, seconds: 2, limit: 100 });
  await runLoad(base, { connections, seconds: 2, limit: 100 });
  process.stdout.write(`app: ${await traced(gw, app.pid!)}\n`);
  process.stdout.write(`baseline: ${await traced(base, baseline.pid!)}\n`);
} finally {
  await stopAll();
}
process.exit(0);
