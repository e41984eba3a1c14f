import { describe, expect, it } from "vitest";
import { createInFlightLimiter } from "./in-flight";

const later = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("in-flight limiter (D364)", () => {
  it("runs at most `limit` at once per key, queues the next ones in order, refuses past the queue", async () => {
    const limiter = createInFlightLimiter({ limit: 2, maxWaiting: 2, maxWaitMs: 10_000 });
    let running = 0;
    let most = 0;
    const order: number[] = [];
    const work = async (i: number) => {
      const release = await limiter.acquire("a@x.test");
      if (!release) return "refused";
      running++;
      most = Math.max(most, running);
      order.push(i);
      await later(20);
      running--;
      release();
      return "ran";
    };
    const results = await Promise.all([0, 1, 2, 3, 4, 5].map(work));
    expect(most).toBe(2);
    expect(results).toEqual(["ran", "ran", "ran", "ran", "refused", "refused"]);
    expect(order).toEqual([0, 1, 2, 3]);
    expect(limiter.inFlight("a@x.test")).toBe(0);
  });

  it("keys are independent; a waiter past maxWaitMs gets null and leaves the queue; a double release counts once", async () => {
    const limiter = createInFlightLimiter({ limit: 1, maxWaiting: 5, maxWaitMs: 30 });
    const first = await limiter.acquire("a");
    expect(await limiter.acquire("b")).not.toBeNull();
    expect(await limiter.acquire("a")).toBeNull();
    expect(limiter.inFlight("a")).toBe(1);
    first!();
    first!();
    const again = await limiter.acquire("a");
    expect(again).not.toBeNull();
    expect(limiter.inFlight("a")).toBe(1);
  });
});
