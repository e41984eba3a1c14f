import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decodeCursor, encodeCursor } from "./cursor";

const binding = { endpoint: "rows.list", sort: "display_order", filters: { source: "s1" } };

describe("cursors", () => {
  it("round-trip their keyset position", () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.constant(null)), fc.uuid(), (value, id) => {
        const position: [string | number | null, string] = [Object.is(value, -0) ? 0 : value, id];
        expect(decodeCursor(encodeCursor(binding, position), binding)).toEqual(position);
      }),
    );
  });

  it("refuse any single changed character, truncation or junk with a 400", () => {
    const cursor = encodeCursor(binding, ["2026-01-01T00:00:00.000Z", "7f2c1b9e-0d4a-4c57-9a61-3f8e2b7d1c05"]);
    const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    for (let i = 0; i < cursor.length; i++) {
      for (const replacement of [alphabet[(alphabet.indexOf(cursor[i]!) + 1) % 64]!, "~"]) {
        const tampered = cursor.slice(0, i) + replacement + cursor.slice(i + 1);
        expect(() => decodeCursor(tampered, binding), `position ${i}`).toThrow(/Invalid cursor/);
      }
    }
    expect(() => decodeCursor(cursor.slice(0, -3), binding)).toThrow(/Invalid cursor/);
    expect(() => decodeCursor("", binding)).toThrow(/Invalid cursor/);
    expect(() => decodeCursor("bm90IGEgY3Vyc29y", binding)).toThrow(/Invalid cursor/);
  });

  it("is bound to its endpoint, sort and filters", () => {
    const cursor = encodeCursor(binding, [1, "id-1"]);
    expect(() => decodeCursor(cursor, { ...binding, sort: "-display_order" })).toThrow(/another endpoint, sort or set of filters/);
    expect(() => decodeCursor(cursor, { ...binding, filters: { source: "s2" } })).toThrow(/another endpoint/);
    expect(() => decodeCursor(cursor, { ...binding, endpoint: "records.list" })).toThrow(/another endpoint/);
  });
});
