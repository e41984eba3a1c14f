import { describe, expect, it } from "vitest";
import { canonicalJson } from "./canonical-json";
import { findUnstorable, MAX_BODY_DEPTH } from "./storable-json";

/** A value nested `depth` levels deep. */
function nested(depth: number, inner: unknown = 0): unknown {
  let value = inner;
  for (let i = 0; i < depth; i++) value = [value];
  return value;
}

describe("canonicalJson", () => {
  it("sorts keys at every level and matches JSON.stringify otherwise", () => {
    const value = { b: [1, { d: "x", c: null }], a: new Date("2026-01-01T00:00:00Z"), u: undefined, s: "é\n" };
    expect(canonicalJson(value)).toBe('{"a":"2026-01-01T00:00:00.000Z","b":[1,{"c":null,"d":"x"}],"s":"é\\n"}');
    expect(canonicalJson([])).toBe("[]");
    expect(canonicalJson({})).toBe("{}");
    expect(canonicalJson([undefined])).toBe("[null]");
  });

  it("writes a flat object (its fast path) exactly as it writes the same object nested", () => {
    const rows: Record<string, unknown>[] = [
      { id: 1, name: "Customer 1", balance: 12.5, active: true, note: null, gone: undefined },
      { "\uffff": 1, "😀": 2, Z: 3, a: 4, "": 5, "10": 6, "9": 7 },
      { nan: Number.NaN, inf: Number.POSITIVE_INFINITY, negZero: -0, big: 1e21, fn: () => 1, s: 'q"\u0001\\' },
      {},
    ];
    for (const row of rows) {
      const flat = canonicalJson(row);
      // Inside an array the row is written by the general walk.
      expect(canonicalJson([row])).toBe(`[${flat}]`);
      // Keys in UTF-16 code-unit order, undefined left out, the values as JSON.stringify writes them.
      const keys = Object.keys(row)
        .filter((key) => row[key] !== undefined)
        .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      expect(flat).toBe(`{${keys.map((key) => `${JSON.stringify(key)}:${JSON.stringify(row[key]) ?? "null"}`).join(",")}}`);
    }
    expect(canonicalJson(rows[1])).toBe('{"":5,"10":6,"9":7,"Z":3,"a":4,"😀":2,"\uffff":1}');
  });

  it("serialises a value nested far deeper than the call stack allows", () => {
    const depth = 200_000;
    const text = canonicalJson(nested(depth));
    expect(text.length).toBe(2 * depth + 1);
  });
});

describe("findUnstorable", () => {
  it("allows exactly MAX_BODY_DEPTH levels and names the path of the first one beyond", () => {
    expect(findUnstorable({ a: nested(MAX_BODY_DEPTH - 1) })).toBeNull();
    expect(findUnstorable({ a: nested(MAX_BODY_DEPTH) })?.field).toBe("a.0.0.0…");
  });

  it("walks a 1 MiB body of ~98 nested arrays around zeros without a copy of the path per node", () => {
    const body = JSON.parse(`${"[".repeat(98)}${"0,".repeat(520_000)}0${"]".repeat(98)}`) as unknown;
    const before = process.resourceUsage().maxRSS;
    expect(findUnstorable(body)).toBeNull();
    // A path copied per node cost ~400 MB here; the walk holds one frame per open level.
    expect((process.resourceUsage().maxRSS - before) / 1024).toBeLessThan(64);
  });

  it("reports NUL and lone surrogates in keys and values by path, in document order", () => {
    expect(findUnstorable({ a: [{ ok: 1 }, { "k\u0000": 1 }], b: "\u0000" })?.field).toBe("a.1.k\\u0000");
    expect(findUnstorable({ a: ["x", "\ud800"] })).toEqual({ field: "a.1", message: expect.stringContaining("surrogate") });
    expect(findUnstorable("\u0000")?.field).toBe("(body)");
  });
});
