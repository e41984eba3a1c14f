import { describe, expect, it } from "vitest";
import { isAppError } from "@/server/errors/app-error";
import { createKeyConcurrency } from "./key-concurrency";

describe("createKeyConcurrency", () => {
  it("runs at most N requests of one key at once, the rest in arrival order, other keys unaffected", async () => {
    const acquire = createKeyConcurrency(2, 5_000);
    const a1 = await acquire("a");
    const a2 = await acquire("a");
    const order: string[] = [];
    const a3 = Promise.resolve(acquire("a")).then((release) => (order.push("a3"), release));
    const a4 = Promise.resolve(acquire("a")).then((release) => (order.push("a4"), release));
    const b1 = await acquire("b"); // another key is never queued behind "a"
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(order).toEqual([]);
    a1();
    a1(); // releasing twice frees one slot only
    (await a3)();
    a2();
    (await a4)();
    b1();
    expect(order).toEqual(["a3", "a4"]);
  });

  it("tells a request that waited too long to retry (503 with Retry-After)", async () => {
    const acquire = createKeyConcurrency(1, 20);
    const held = await acquire("a");
    const error = await Promise.resolve(acquire("a")).catch((e: unknown) => e);
    expect(isAppError(error) && error.code).toBe("service_unavailable");
    expect(isAppError(error) && error.headers).toEqual({ "Retry-After": "1" });
    held();
    (await acquire("a"))(); // the slot given up by the waiter is not lost
  });

  it("hands a free slot over at once, without a promise, and a released one to the first waiter, never to a newcomer", async () => {
    const acquire = createKeyConcurrency(1, 5_000);
    const held = acquire("a");
    expect(typeof held).toBe("function");
    const waiter = acquire("a");
    expect(waiter).toBeInstanceOf(Promise);
    (held as () => void)();
    const newcomer = acquire("a"); // in the same tick as the release: the waiter's slot is not free
    expect(newcomer).toBeInstanceOf(Promise);
    const released: string[] = [];
    void (newcomer as Promise<() => void>).then(() => released.push("newcomer"));
    (await waiter)();
    await (newcomer as Promise<() => void>);
    expect(released).toEqual(["newcomer"]);
  });
});
