import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { restartDelayMs, superviseWorker, type WorkerStatus } from "./worker-supervisor";

const fixture = (name: string) => fileURLToPath(new URL(`./__fixtures__/${name}`, import.meta.url));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("restartDelayMs", () => {
  it("starts at 1 s and doubles up to 30 s", () => {
    expect([1, 2, 3, 4, 5, 6, 7, 20].map(restartDelayMs)).toEqual([1000, 2000, 4000, 8000, 16_000, 30_000, 30_000, 30_000]);
  });
});

describe("superviseWorker (real child processes)", () => {
  it("restarts a worker that keeps failing with growing delays, and a stop cancels the next restart", { timeout: 20_000 }, async () => {
    const lines: string[] = [];
    const changes: WorkerStatus[] = [];
    const worker = superviseWorker({ entry: fixture("crashing-worker.mjs"), log: (line) => lines.push(line), onChange: (s) => changes.push(s) });
    // It exits at once, then again after 1 s, then after 2 s more. Sampled once it waits for its
    // second restart (not at a fixed time: a loaded machine can be forking the child right then).
    const crashLines = () => lines.filter((line) => /ended unexpectedly \(exit code 3\)/.test(line));
    await expect.poll(() => crashLines().length >= 2 && worker.status().state === "restarting", { timeout: 12_000 }).toBe(true);
    const delays = crashLines().map((line) => /restarting in (\d+) s/.exec(line)?.[1]);
    expect(delays.length).toBeGreaterThanOrEqual(2);
    expect(delays).toEqual(["1", "2", "4"].slice(0, delays.length));
    expect(worker.status()).toMatchObject({ state: "restarting", pid: null, lastExit: "exit code 3" });
    const restarts = worker.status().restarts;
    expect(restarts).toBeGreaterThanOrEqual(2);
    await worker.stop({ deadlineMs: 0 });
    expect(worker.status().state).toBe("stopped");
    await sleep(4_500);
    expect(worker.status().restarts).toBe(restarts);
    expect(changes.map((s) => s.state)).toContain("starting");
    expect(await worker.collectMetrics()).toEqual([]);
  });

  it("kills a worker that outlives the stop deadline by the grace period", { timeout: 20_000 }, async () => {
    const lines: string[] = [];
    const worker = superviseWorker({ entry: fixture("stubborn-worker.mjs"), log: (line) => lines.push(line) });
    await expect.poll(() => worker.status().state, { timeout: 10_000 }).toBe("running");
    const pid = worker.status().pid!;
    const started = Date.now();
    await worker.stop({ deadlineMs: 100 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(5_000);
    expect(lines).toContain(`worker: process ${pid} outlived the deadline: killing it`);
    expect(worker.status()).toMatchObject({ state: "stopped", pid: null, restarts: 0 });
    expect(() => process.kill(pid, 0)).toThrow();
  });
});
