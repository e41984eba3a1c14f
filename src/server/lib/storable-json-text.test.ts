import { describe, expect, it } from "vitest";
import { escapeUnstorable, storableJsonText } from "./storable-json";

describe("storableJsonText", () => {
  it("writes U+0000 and unpaired surrogates out as escapes, as escapeUnstorable does, and leaves the rest", () => {
    const value = { nul: "a\u0000b", high: "x\ud83d", low: "\udc00y", pair: "ok \u{1F600}", control: "tab\there\u0001" };
    const stored = JSON.parse(storableJsonText(JSON.stringify(value))) as Record<string, string>;
    expect(stored).toEqual({
      nul: escapeUnstorable(value.nul),
      high: escapeUnstorable(value.high),
      low: escapeUnstorable(value.low),
      pair: value.pair,
      control: value.control,
    });
    expect(stored.nul).toBe("a\\u0000b");
  });

  it("does not touch text that only spells an escape after an escaped backslash", () => {
    const value = { literal: "\\u0000 and \\ud800", both: "\\\u0000" };
    const stored = JSON.parse(storableJsonText(JSON.stringify(value))) as Record<string, string>;
    expect(stored.literal).toBe(value.literal);
    expect(stored.both).toBe("\\\\u0000");
  });

  it("returns clean text unchanged", () => {
    const json = JSON.stringify({ a: "plain", b: [1, 2, "é"] });
    expect(storableJsonText(json)).toBe(json);
  });
});
