import { parse } from "csv-parse/sync";
import { describe, expect, it } from "vitest";
import { cellText, csvCell, csvRow, neutralizeFormula } from "./csv-cells";

describe("CSV cells", () => {
  it("neutralises text a spreadsheet would run as a formula", () => {
    for (const text of ["=1+1", "+1", "-2+3", "@SUM(A1)", "\tcmd", "\r=x", '=HYPERLINK("http://x")']) {
      expect(neutralizeFormula(text)).toBe(`'${text}`);
    }
    for (const text of ["ok", "1=1", " =x", "", "'=already"]) expect(neutralizeFormula(text)).toBe(text);
  });

  it("writes numbers and booleans as values, objects as JSON (neutralised too), null as empty", () => {
    expect(cellText(-5)).toBe("-5");
    expect(cellText(true)).toBe("true");
    expect(cellText(null)).toBe("");
    expect(cellText(undefined)).toBe("");
    expect(cellText({ a: [1, "x"] })).toBe('{"a":[1,"x"]}');
    expect(cellText(["=cmd"])).toBe('["=cmd"]');
    expect(cellText(new Date("2026-01-02T03:04:05.006Z"))).toBe("2026-01-02T03:04:05.006Z");
  });

  it("quotes commas, quotes and line breaks so a parser reads back the same text", () => {
    expect(csvCell('say "hi", then\nleave')).toBe('"say ""hi"", then\nleave"');
    const values = ["a,b", 'q"q', "line\r\nbreak", { nested: { x: "y,z" } }, "=evil()", 3.5];
    const line = csvRow(values);
    expect(line.endsWith("\r\n")).toBe(true);
    expect(parse(line)).toEqual([["a,b", 'q"q', "line\r\nbreak", '{"nested":{"x":"y,z"}}', "'=evil()", "3.5"]]);
  });
});
