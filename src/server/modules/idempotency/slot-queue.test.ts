import { describe, expect, it } from "vitest";
import { createSlotQueue } from "./slot-queue";

const gate = () => {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
};

describe("the per-slot queue", () => {
  it("runs one request per slot at a time, in arrival order, and other slots alongside", async () => {
    const inSlot = createSlotQueue(() => new Error("timeout"));
    const events: string[] = [];
    const first = gate();
    const a1 = inSlot("a", 1_000, async () => {
      events.push("a1 start");
      await first.opened;
      events.push("a1 end");
    });
    const a2 = inSlot("a", 1_000, async () => void events.push("a2"));
    const a3 = inSlot("a", 1_000, async () => void events.push("a3"));
    const b1 = inSlot("b", 1_000, async () => void events.push("b1"));
    await b1;
    expect(events).toEqual(["a1 start", "b1"]);
    first.open();
    await Promise.all([a1, a2, a3]);
    expect(events).toEqual(["a1 start", "b1", "a1 end", "a2", "a3"]);
  });

  it("gives a waiter the timeout error after maxWaitMs without running it, and keeps the order for the rest", async () => {
    const inSlot = createSlotQueue(() => new Error("still in flight"));
    const first = gate();
    const ran: string[] = [];
    const a1 = inSlot("a", 1_000, () => first.opened.then(() => void ran.push("a1")));
    const a2 = inSlot("a", 20, async () => void ran.push("a2"));
    const a3 = inSlot("a", 1_000, async () => void ran.push("a3"));
    await expect(a2).rejects.toThrow("still in flight");
    expect(ran).toEqual([]);
    first.open();
    await Promise.all([a1, a3]);
    expect(ran).toEqual(["a1", "a3"]);
  });

  it("frees the slot when a request fails", async () => {
    const inSlot = createSlotQueue(() => new Error("timeout"));
    await expect(inSlot("a", 100, async () => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    await expect(inSlot("a", 100, async () => "next")).resolves.toBe("next");
  });
});
