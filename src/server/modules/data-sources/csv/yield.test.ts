import { describe, expect, it } from "vitest";
import { TURN_BUDGET_MS, TimeSlicer } from "./yield";

function busy(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // a unit of CPU-bound work
  }
}

describe("TimeSlicer", () => {
  it("gives the event loop a turn once a turn has used its budget, and not before", async () => {
    const slicer = new TimeSlicer();
    let turns = 0;
    let longest = 0;
    let turnStarted = performance.now();
    const ticker = setInterval(() => turns++, 0);
    try {
      // 40 ms of work in 1 ms units: others must get the loop several times, each wait bounded.
      for (let unit = 0; unit < 40; unit++) {
        busy(1);
        const before = turns;
        await slicer.pause();
        if (turns > before) {
          longest = Math.max(longest, performance.now() - turnStarted);
          turnStarted = performance.now();
        }
      }
    } finally {
      clearInterval(ticker);
    }
    expect(turns).toBeGreaterThanOrEqual(3);
    // A unit never runs past the budget by more than itself (plus scheduling noise on a busy machine).
    expect(longest).toBeLessThan(TURN_BUDGET_MS * 6);
  });

  it("does not yield while the turn is within its budget", async () => {
    const slicer = new TimeSlicer();
    let ran = false;
    setImmediate(() => (ran = true));
    await slicer.pause();
    expect(ran).toBe(false);
  });
});
