import { describe, expect, it } from "vitest";
import { guardDeletions } from "./cdc-guardrail";

const now = new Date("2026-11-25T12:00:00Z");
const later = (seconds: number) => new Date(now.getTime() + seconds * 1000);

describe("the delete guardrail over a stream", () => {
  it("counts the deletions of one window together, against the live rows when it opened", () => {
    const first = guardDeletions(null, { liveBefore: 100, toRemove: 30, declinedSoFar: 0, intervalSeconds: 900, now });
    expect(first).toMatchObject({ apply: true, window: { liveAtStart: 100, removed: 30 } });
    const second = guardDeletions(first.window, { liveBefore: 70, toRemove: 20, declinedSoFar: 0, intervalSeconds: 900, now: later(60) });
    expect(second).toMatchObject({ apply: true, window: { liveAtStart: 100, removed: 50 } });
    // 51 of the 100 live at the window's start: held back, though only 1 of this commit's 50.
    const third = guardDeletions(second.window, { liveBefore: 50, toRemove: 1, declinedSoFar: 0, intervalSeconds: 900, now: later(120) });
    expect(third).toMatchObject({ apply: false, window: { removed: 50 } });
  });

  it("opens a new window once the interval has passed", () => {
    const first = guardDeletions(null, { liveBefore: 100, toRemove: 50, declinedSoFar: 0, intervalSeconds: 60, now });
    const next = guardDeletions(first.window, { liveBefore: 50, toRemove: 20, declinedSoFar: 0, intervalSeconds: 60, now: later(61) });
    expect(next).toMatchObject({ apply: true, window: { liveAtStart: 50, removed: 20 } });
  });

  it("holds back every deletion while earlier ones await approval, and lets other changes through", () => {
    expect(guardDeletions(null, { liveBefore: 100, toRemove: 1, declinedSoFar: 60, intervalSeconds: 900, now }).apply).toBe(false);
    expect(guardDeletions(null, { liveBefore: 100, toRemove: 0, declinedSoFar: 60, intervalSeconds: 900, now }).apply).toBe(true);
  });

  it("opens no window on a commit without deletions, so a later deletion counts against the live rows then", () => {
    // apply-changes counts live rows only for a commit that removes some: it passes 0 otherwise.
    const update = guardDeletions(null, { liveBefore: 0, toRemove: 0, declinedSoFar: 0, intervalSeconds: 900, now });
    expect(update).toEqual({ apply: true, window: null });
    const deletion = guardDeletions(update.window, { liveBefore: 1000, toRemove: 1, declinedSoFar: 0, intervalSeconds: 900, now: later(1) });
    expect(deletion).toMatchObject({ apply: true, window: { liveAtStart: 1000, removed: 1 } });
  });

  it("keeps an open window across commits without deletions", () => {
    const first = guardDeletions(null, { liveBefore: 100, toRemove: 30, declinedSoFar: 0, intervalSeconds: 900, now });
    expect(guardDeletions(first.window, { liveBefore: 0, toRemove: 0, declinedSoFar: 0, intervalSeconds: 900, now: later(10) }).window).toEqual(first.window);
  });
});
