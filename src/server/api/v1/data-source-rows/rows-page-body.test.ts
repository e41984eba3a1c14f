import { describe, expect, it } from "vitest";
import { JsonText } from "@/server/lib/json-text";
import type { RowRecord } from "@/server/modules/data-source-rows/list-rows";
import { page } from "@/server/api/v1/response-envelope";
import { toRowDto } from "./row.types";
import { writeRowsPageBody } from "./rows-page-body";

function record(index: number, overrides: Partial<RowRecord> = {}): RowRecord {
  return {
    id: `0193a3c4-1d2e-7f00-8000-${String(index).padStart(12, "0")}`,
    externalId: `ext-${index}`,
    data: { id: index, name: `Customer ${index}`, city: "Lyon" },
    displayOrder: index / 3,
    createdAt: "2026-10-27T12:00:00.000Z",
    updatedAt: "2026-11-26T12:00:00.123Z",
    deletedAt: null,
    ...overrides,
  };
}

const awkward: Partial<RowRecord>[] = [
  { externalId: 'quote " backslash \\ newline \n tab \t', data: { 'key "x"': "é ✓ \u{1F600}", nested: [1, null, { a: true }] } },
  { externalId: "\u2028\u2029 <script>", data: {} },
  { displayOrder: null, deletedAt: "2026-11-26T13:00:00.000Z" },
  { displayOrder: Infinity },
  { displayOrder: -0 },
  { data: { big: 1e21, small: 5e-7, negative: -12.5 } },
];

describe("writeRowsPageBody", () => {
  it("writes exactly what JSON.stringify writes for the same page", () => {
    const rows = [record(1), ...awkward.map((o, i) => record(i + 2, o))];
    for (const next of [null, "eyJwIjoxfQ.sig"]) {
      const output = page({ requestId: "req_abc123" }, rows.map(toRowDto), { next_cursor: next, limit: 100 });
      expect(writeRowsPageBody(output)).toBe(JSON.stringify(output));
    }
    const empty = page({ requestId: "req_abc123" }, [], { next_cursor: null, limit: 25 });
    expect(writeRowsPageBody(empty)).toBe(JSON.stringify(empty));
  });

  it("copies a row's data as its JSON text, which JSON.stringify reads as the same value", () => {
    const text = '{"id": 7, "name": "Customer 7", "score": 12345678901234567890, "tags": ["a", "b"]}';
    const output = page({ requestId: "req_abc123" }, [toRowDto(record(7, { data: new JsonText(text) }))], { next_cursor: null, limit: 1 });
    const body = writeRowsPageBody(output);
    expect(body).toContain(`"data":${text}`);
    expect(JSON.parse(body)).toEqual(JSON.parse(JSON.stringify(output)));
  });
});
