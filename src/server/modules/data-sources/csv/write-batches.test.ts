import { describe, expect, it } from "vitest";
import { WRITE_BATCH_CHARS, WRITE_BATCH_ROWS, writeBatches } from "./write-batches";

describe("writeBatches", () => {
  it("cuts narrow rows by count", () => {
    const batches = [
      ...writeBatches(
        Array.from({ length: 2500 }, (_, i) => i),
        () => 200,
      ),
    ];
    expect(batches.map((b) => b.length)).toEqual([WRITE_BATCH_ROWS, WRITE_BATCH_ROWS, 500]);
    expect(batches.flat()).toEqual(Array.from({ length: 2500 }, (_, i) => i));
  });

  it("cuts wide rows by size, and a row larger than a batch goes alone", () => {
    const sizes = [100_000, 100_000, 100_000, 100_000, 100_000, 100_000, WRITE_BATCH_CHARS + 1, 10];
    const batches = [...writeBatches(sizes, (size) => size)];
    expect(batches).toEqual([[100_000, 100_000, 100_000, 100_000, 100_000], [100_000], [WRITE_BATCH_CHARS + 1], [10]]);
    for (const batch of batches) expect(batch.length === 1 || batch.reduce((a, b) => a + b, 0) <= WRITE_BATCH_CHARS).toBe(true);
  });

  it("gives nothing for nothing", () => {
    expect([...writeBatches([], () => 1)]).toEqual([]);
  });
});
