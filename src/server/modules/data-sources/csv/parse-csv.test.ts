import { describe, expect, it } from "vitest";
import { canonicalJson } from "@/server/lib/canonical-json";
import { hashRowData } from "../row-hash";
import { CSV_LIMITS } from "./csv-limits";
import { assignDisplayOrders } from "./display-orders";
import { MAX_CSV_ROWS, parseCsv } from "./parse-csv";

const invalid = async (content: string, options: { keyColumn?: string | null } = {}) => {
  try {
    await parseCsv(content, options);
  } catch (error) {
    return (error as Error & { code?: string }).code === "bad_request" ? (error as Error).message : `unexpected: ${String(error)}`;
  }
  return "no error";
};

describe("parseCsv", () => {
  it("reads a header row and the records; without a key, a row's external_id is its position", async () => {
    const parsed = await parseCsv("code,name\nA1,Apple\nB2,Banana\n");
    expect(parsed.columns).toEqual(["code", "name"]);
    expect(parsed.rows.map(({ externalId, json }) => ({ externalId, data: JSON.parse(json) as unknown }))).toEqual([
      { externalId: "1", data: { code: "A1", name: "Apple" } },
      { externalId: "2", data: { code: "B2", name: "Banana" } },
    ]);
    expect(parsed.rows[0]).toMatchObject({ json: '{"code":"A1","name":"Apple"}', hash: hashRowData({ code: "A1", name: "Apple" }) });
  });

  it("uses the key column as external_id, trims header names, strips a BOM, keeps quoted commas and newlines", async () => {
    const parsed = await parseCsv('\uFEFF code , name\nA1,"Apple, red"\nB2,"two\nlines"\n', { keyColumn: "code" });
    expect(parsed.columns).toEqual(["code", "name"]);
    expect(parsed.rows.map((row) => row.externalId)).toEqual(["A1", "B2"]);
    expect(JSON.parse(parsed.rows[1]!.json)).toEqual({ code: "B2", name: "two\nlines" });
  });

  it("keeps a column named __proto__ as a column", async () => {
    const parsed = await parseCsv("__proto__,b\nx,y\n");
    expect(parsed.rows[0]!.json).toBe('{"__proto__":"x","b":"y"}');
  });

  it("writes each row's JSON exactly as canonicalJson does, so its hash matches rows stored by any writer", async () => {
    const header = ["zeta", "Alpha", "é", "a b", "\u00e9x", "10", "2", "__proto__", 'quo"te'];
    const cells = ['a,"b"', "tab\there", "\u2028", "", "😀", "x\\y", "1", "p", "\n"];
    const csv = `${header.map((h) => `"${h.replace(/"/g, '""')}"`).join(",")}\n${cells.map((c) => `"${c.replace(/"/g, '""')}"`).join(",")}\n`;
    const [row] = (await parseCsv(csv)).rows;
    const data = Object.fromEntries(header.map((column, i) => [column, cells[i]!]));
    expect(row!.json).toBe(canonicalJson(data));
    expect(row!.hash).toBe(hashRowData(data));
  });

  it("names the line of a row with too few or too many fields", async () => {
    expect(await invalid("a,b\n1,2\n3\n")).toBe("Invalid CSV: line 3: the row has 1 fields but the header has 2. Nothing was changed.");
    expect(await invalid("a,b\n1,2\n\n\n3,4,5\n")).toBe("Invalid CSV: line 5: the row has 3 fields but the header has 2. Nothing was changed.");
  });

  it("names the line where an unclosed quote starts", async () => {
    expect(await invalid('a,b\n1,2\n3,"4\n5,6\n')).toBe("Invalid CSV: line 3: a quoted field that starts on this line is never closed. Nothing was changed.");
  });

  it("names the line of a misplaced quote", async () => {
    expect(await invalid('a,b\n1,"2"x\n')).toMatch(/^Invalid CSV: line 2: a quote is misplaced/);
  });

  it("counts lines as an editor does, even after multi-line fields and blank lines", async () => {
    const content = 'id,note\n1,"a\nb\nc"\n\n2,x\n2,y\n';
    expect(await invalid(content, { keyColumn: "id" })).toBe('Invalid CSV: line 7, column "id": the key "2" repeats line 6. Nothing was changed.');
  });

  it("rejects an empty key, a key column missing from the header, empty or repeated header names, an empty file", async () => {
    expect(await invalid("id,name\n,x\n", { keyColumn: "id" })).toBe('Invalid CSV: line 2, column "id": the key is empty. Nothing was changed.');
    expect(await invalid("code,name\nA,x\n", { keyColumn: "id" })).toBe(
      'Invalid CSV: line 1: the key column "id" is not in the header (code, name). Nothing was changed.',
    );
    expect(await invalid("a,,c\n1,2,3\n")).toBe("Invalid CSV: line 1, column 2: the header name is empty. Nothing was changed.");
    expect(await invalid("a,b,a\n1,2,3\n")).toBe('Invalid CSV: line 1, column 3: the header name "a" repeats. Nothing was changed.');
    expect(await invalid("")).toBe("Invalid CSV: the file is empty; the first line must be a header row. Nothing was changed.");
  });

  it("names the line and column of a value Postgres cannot store (NUL), in the header or a row", async () => {
    expect(await invalid("a,b\n1,2\n3,x\u0000y\n")).toBe('Invalid CSV: line 3, column "b": must not contain the NUL character (U+0000). Nothing was changed.');
    expect(await invalid("a,b\u0000\n1,2\n")).toBe(
      "Invalid CSV: line 1, column 2: the header name must not contain the NUL character (U+0000). Nothing was changed.",
    );
  });

  it("refuses more than the row limit", { timeout: 60_000 }, async () => {
    const content = `n\n${"1\n".repeat(MAX_CSV_ROWS + 1)}`;
    expect(await invalid(content)).toBe(`Invalid CSV: line ${MAX_CSV_ROWS + 2}: the file has more than 100 000 rows, the limit. Nothing was changed.`);
    expect((await parseCsv(`n\n${"1\n".repeat(MAX_CSV_ROWS)}`)).rows).toHaveLength(MAX_CSV_ROWS);
  });

  it("refuses a header over the column limit, naming the limit and the line, without reading on", async () => {
    const wide = Array.from({ length: CSV_LIMITS.columns + 1 }, (_, i) => `c${i}`).join(",");
    expect(await invalid(`${wide}\n${"x,".repeat(CSV_LIMITS.columns)}x\n`)).toBe(
      "Invalid CSV: line 1: the header has 1 001 columns; the limit is 1 000. Nothing was changed.",
    );
    const widest = Array.from({ length: CSV_LIMITS.columns }, (_, i) => `c${i}`).join(",");
    expect((await parseCsv(`${widest}\n${"x,".repeat(CSV_LIMITS.columns - 1)}x\n`)).columns).toHaveLength(CSV_LIMITS.columns);
  });

  it("refuses a header row longer than the header limit", async () => {
    const long = ["a".repeat(40_000), "b".repeat(30_000)].join(",");
    expect(await invalid(`${long}\n1,2\n`)).toBe("Invalid CSV: line 1: the header row is 70 001 characters long; the limit is 65 536. Nothing was changed.");
  });

  it("refuses a cell longer than 32 767 characters, naming line and column; 32 767 is fine", async () => {
    expect(await invalid(`a,b\n1,2\n3,${"é".repeat(32_768)}\n`)).toBe(
      'Invalid CSV: line 3, column "b": the cell is 32 768 characters long; the limit is 32 767. Nothing was changed.',
    );
    expect((await parseCsv(`a,b\n1,${"é".repeat(32_767)}\n`)).rows).toHaveLength(1);
  });

  it("refuses a record that runs past 1 MiB (a runaway quote, a giant line) where it starts", { timeout: 60_000 }, async () => {
    expect(await invalid(`a,b\n1,2\n3,"${"x".repeat(CSV_LIMITS.recordChars + 10)}\n`)).toBe(
      "Invalid CSV: line 3: the row is longer than 1 048 576 characters, the limit. Nothing was changed.",
    );
    // The 400 000-column header of issue 20 (5.5 MB): refused once 1 MiB of it is read.
    const header = Array.from({ length: 400_000 }, (_, i) => `column_${i}`).join(",");
    expect(await invalid(`${header}\n`)).toBe("Invalid CSV: line 1: the header row is longer than 65 536 characters, the limit. Nothing was changed.");
  });
});

describe("assignDisplayOrders", () => {
  it("numbers a first upload 1…n", async () => {
    expect(await assignDisplayOrders([null, null, null])).toEqual([1, 2, 3]);
  });

  it("keeps the orders of rows that stay in order; new and moved rows go between their neighbours", async () => {
    // Stored: A=1 B=2 C=3 D=4 E=5. New file: B, X (new), D, E, C (moved to the end), Y (new); A dropped.
    const orders = await assignDisplayOrders([2, null, 4, 5, 3, null]);
    expect([orders[0], orders[2], orders[3]]).toEqual([2, 4, 5]);
    expect(orders[1]).toBe(3);
    expect(orders.slice(4)).toEqual([6, 7]);
    for (let i = 1; i < orders.length; i++) expect(orders[i]).toBeGreaterThan(orders[i - 1]!);
    expect(await assignDisplayOrders([null, 5, 6])).toEqual([4, 5, 6]);
  });

  it("keeps a longest ascending run of a large shuffled file, as a plain O(n²) count finds it", async () => {
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    // Mostly ascending with moves and new rows, as a re-upload looks; 3 000 rows.
    const previous = Array.from({ length: 3000 }, (_, i) => (random() < 0.1 ? null : random() < 0.2 ? random() * 3000 : i + 1));
    const orders = await assignDisplayOrders(previous);
    const kept = previous.filter((order, i) => order !== null && orders[i] === order).length;
    const longest = new Array<number>(previous.length).fill(0);
    for (let i = 0; i < previous.length; i++) {
      if (previous[i] === null) continue;
      longest[i] = 1;
      for (let j = 0; j < i; j++) if (previous[j] !== null && previous[j]! < previous[i]! && longest[j]! + 1 > longest[i]!) longest[i] = longest[j]! + 1;
    }
    expect(kept).toBe(Math.max(...longest));
    for (let i = 1; i < orders.length; i++) expect(orders[i]).toBeGreaterThan(orders[i - 1]!);
  });

  it("renumbers everything when the gaps run out", async () => {
    expect(await assignDisplayOrders([1, null, 1 + Number.EPSILON])).toEqual([1, 2, 3]);
  });
});

describe("parseCsv from a stream (the dashboard's upload body, D161)", () => {
  it("decodes UTF-8 split across chunks and gives what the whole text gives", async () => {
    const text = "name,city\nA1,Zürich\nB2,Łódź 🚲\n";
    const bytes = new TextEncoder().encode(text);
    async function* oneByteAtATime() {
      for (const byte of bytes) yield new Uint8Array([byte]);
    }
    expect(await parseCsv(oneByteAtATime(), { keyColumn: "name" })).toEqual(await parseCsv(text, { keyColumn: "name" }));
  });

  it("stops reading the stream at the first failure", async () => {
    let pulled = 0;
    async function* rows() {
      yield "sku,price\nA1,1\n,2\n";
      for (let i = 0; i < 1000; i++) {
        pulled++;
        yield `K${i},3\n`;
      }
    }
    await expect(parseCsv(rows(), { keyColumn: "sku" })).rejects.toThrow(/line 3, column "sku": the key is empty/);
    expect(pulled).toBeLessThanOrEqual(1);
  });
});
