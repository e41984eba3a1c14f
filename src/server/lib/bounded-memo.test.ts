import { describe, expect, it } from "vitest";
import { boundedMemo } from "./bounded-memo";

describe("boundedMemo", () => {
  it("computes once per key and keeps at most `limit` answers, dropping the oldest", () => {
    const memo = boundedMemo<string>(2);
    const computed: string[] = [];
    const answer = (key: string) => memo(key, () => (computed.push(key), key.toUpperCase()));
    expect([answer("a"), answer("a"), answer("b")]).toEqual(["A", "A", "B"]);
    expect(computed).toEqual(["a", "b"]);
    answer("c"); // "a" is the oldest: dropped
    answer("b");
    answer("a");
    expect(computed).toEqual(["a", "b", "c", "a"]);
  });

  it("remembers false and other falsy answers", () => {
    const memo = boundedMemo<boolean>(4);
    let calls = 0;
    memo("x", () => (calls++, false));
    expect(memo("x", () => (calls++, true))).toBe(false);
    expect(calls).toBe(1);
  });
});
