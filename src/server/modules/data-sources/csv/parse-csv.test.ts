import { describe, expect, it } from "vitest";
import { MAX_CSV_ROWS, parseCsv } from "./parse-csv";

const invalid = (content: string, options: { keyColumn?: string | null } = {}) => {
  try {
    parseCsv(content, options);
  } catch (error) {
    return (error as Error & { code?: string }).code === "bad_request" ? (error as Error).message : `unexpected: ${String(error)}`;
  }
  return "no error";
};

describe("parseCsv", () => {
  it("reads a header row and the records; without a key, a row's external_id is its position", () => {
    const parsed = parseCsv("code,name\nA1,Apple\nB2,Banana\n");
    expect(parsed.columns).toEqual(["code", "name"]);
    expect(parsed.rows).toEqual([
      { externalId: "1", data: { code: "A1", name: "Apple" }, displayOrder: 1 },
      { externalId: "2", data: { code: "B2", name: "Banana" }, displayOrder: 2 },
    ]);
  });

  it("uses the key column as external_id, trims header names, strips a BOM, keeps quoted commas and newlines", () => {
    const parsed = parseCsv('\uFEFF code , name\nA1,"Apple, red"\nB2,"two\nlines"\n', { keyColumn: "code" });
    expect(parsed.columns).toEqual(["code", "name"]);
    expect(parsed.rows.map((row) => row.externalId)).toEqual(["A1", "B2"]);
    expect(parsed.rows[1]!.data).toEqual({ code: "B2", name: "two\nlines" });
  });

  it("keeps a column named __proto__ as a column", () => {
    const parsed = parseCsv("__proto__,b\nx,y\n");
    expect(Object.keys(parsed.rows[0]!.data)).toEqual(["__proto__", "b"]);
    expect(Object.getPrototypeOf(parsed.rows[0]!.data)).toBe(Object.prototype);
  });

  it("names the line of a row with too few or too many fields", () => {
    expect(invalid("a,b\n1,2\n3\n")).toBe("Invalid CSV: line 3: the row has 1 fields but the header has 2. Nothing was changed.");
    expect(invalid("a,b\n1,2\n\n\n3,4,5\n")).toBe("Invalid CSV: line 5: the row has 3 fields but the header has 2. Nothing was changed.");
  });

  it("names the line where an unclosed quote starts", () => {
    expect(invalid('a,b\n1,2\n3,"4\n5,6\n')).toBe("Invalid CSV: line 3: a quoted field that starts on this line is never closed. Nothing was changed.");
  });

  it("names the line of a misplaced quote", () => {
    expect(invalid('a,b\n1,"2"x\n')).toMatch(/^Invalid CSV: line 2: a quote is misplaced/);
  });

  it("counts lines as an editor does, even after multi-line fields and blank lines", () => {
    const content = 'id,note\n1,"a\nb\nc"\n\n2,x\n2,y\n';
    expect(invalid(content, { keyColumn: "id" })).toBe('Invalid CSV: line 7, column "id": the key "2" repeats line 6. Nothing was changed.');
  });

  it("rejects an empty key, a key column missing from the header, empty or repeated header names, an empty file", () => {
    expect(invalid("id,name\n,x\n", { keyColumn: "id" })).toBe('Invalid CSV: line 2, column "id": the key is empty. Nothing was changed.');
    expect(invalid("code,name\nA,x\n", { keyColumn: "id" })).toBe('Invalid CSV: line 1: the key column "id" is not in the header (code, name). Nothing was changed.');
    expect(invalid("a,,c\n1,2,3\n")).toBe("Invalid CSV: line 1, column 2: the header name is empty. Nothing was changed.");
    expect(invalid("a,b,a\n1,2,3\n")).toBe('Invalid CSV: line 1, column 3: the header name "a" repeats. Nothing was changed.');
    expect(invalid("")).toBe("Invalid CSV: the file is empty; the first line must be a header row. Nothing was changed.");
  });

  it("names the line and column of a value Postgres cannot store (NUL), in the header or a row", () => {
    expect(invalid("a,b\n1,2\n3,x\u0000y\n")).toBe('Invalid CSV: line 3, column "b": must not contain the NUL character (U+0000). Nothing was changed.');
    expect(invalid("a,b\u0000\n1,2\n")).toBe("Invalid CSV: line 1, column 2: the header name must not contain the NUL character (U+0000). Nothing was changed.");
  });

  it("refuses more than the row limit", () => {
    const content = `n\n${"1\n".repeat(MAX_CSV_ROWS + 1)}`;
    expect(invalid(content)).toBe(`Invalid CSV: the file has more than ${MAX_CSV_ROWS} rows, the limit. Nothing was changed.`);
    expect(parseCsv(`n\n${"1\n".repeat(MAX_CSV_ROWS)}`).rows).toHaveLength(MAX_CSV_ROWS);
  });
});
