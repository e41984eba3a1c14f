import { readdir, readFile } from "node:fs/promises";
import path from "node:path";

/**
 * What held the event loop: `npx tsx bench/profile-stalls.ts <dir> [frames]` after
 * `BENCH_ONLY=csv BENCH_PROFILE=<dir> npm run bench`. For each stall the CSV bench kept
 * (stalls-N.json: the gaps with the most CPU in them, windows on the monotonic clock), the CPU
 * profile's samples inside the window, summed by frame: self time (where the time went) and
 * inclusive time (which caller it went through). V8 stamps profile samples with the same
 * monotonic clock as process.hrtime, so the windows line up without conversion.
 */
interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}
interface StallFile {
  label: string;
  stalls: Array<{ gapMs: number; cpuMs: number; loopCpuMs: number | null; startUs: number; endUs: number }>;
}

const frameName = (node: ProfileNode) =>
  `${node.callFrame.functionName || "(anonymous)"} ${node.callFrame.url.split("/").slice(-2).join("/")}:${node.callFrame.lineNumber + 1}`;

function summarise(profile: CpuProfile, startUs: number, endUs: number, frames: number): string[] {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  let time = profile.startTime;
  let total = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    time += profile.timeDeltas[i]!;
    if (time < startUs || time > endUs) continue;
    // A sample stands for the time until the next one.
    const ms = (profile.timeDeltas[i + 1] ?? 0) / 1000;
    total += ms;
    const leaf = byId.get(profile.samples[i]!)!;
    self.set(frameName(leaf), (self.get(frameName(leaf)) ?? 0) + ms);
    const seen = new Set<string>();
    for (let id: number | undefined = leaf.id; id !== undefined; id = parent.get(id)) {
      const name = frameName(byId.get(id)!);
      if (seen.has(name)) continue;
      seen.add(name);
      inclusive.set(name, (inclusive.get(name) ?? 0) + ms);
    }
  }
  const top = (map: Map<string, number>, count: number) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, count)
      .map(([name, ms]) => `    ${ms.toFixed(1).padStart(7)} ms  ${name}`);
  return [`  sampled ${total.toFixed(1)} ms`, "  self:", ...top(self, 10), "  inclusive:", ...top(inclusive, frames)];
}

async function main(): Promise<void> {
  const dir = path.resolve(process.argv[2] ?? ".");
  const frames = Number(process.argv[3] ?? 25);
  const names = await readdir(dir);
  const profiles: CpuProfile[] = [];
  for (const name of names.filter((n) => n.endsWith(".cpuprofile"))) profiles.push(JSON.parse(await readFile(path.join(dir, name), "utf8")) as CpuProfile);
  for (const name of names.filter((n) => /^stalls-\d+\.json$/.test(n)).sort()) {
    const { label, stalls } = JSON.parse(await readFile(path.join(dir, name), "utf8")) as StallFile;
    for (const stall of stalls.slice(0, 3)) {
      process.stdout.write(
        `\n== ${label}: gap ${stall.gapMs.toFixed(0)} ms, loop held ${stall.loopCpuMs?.toFixed(0) ?? "?"} ms, process CPU ${stall.cpuMs.toFixed(0)} ms\n`,
      );
      // The main thread's profile is the one whose samples span the window.
      const profile = profiles.find((p) => p.startTime <= stall.startUs && p.endTime >= stall.endUs && p.samples.length > 1000);
      process.stdout.write(`${profile ? summarise(profile, stall.startUs, stall.endUs, frames).join("\n") : "  (no profile covers it)"}\n`);
    }
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
