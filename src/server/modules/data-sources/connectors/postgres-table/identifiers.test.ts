import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { formatTableName, parseTableName, quoteIdent } from "./identifiers";

describe("Postgres identifiers", () => {
  it("parses schema.table, a bare table (public), and quoted parts", () => {
    expect(parseTableName("sales.customers")).toEqual({ schema: "sales", table: "customers" });
    expect(parseTableName("customers")).toEqual({ schema: "public", table: "customers" });
    expect(parseTableName('"sales.eu"."Odd ""Table"""')).toEqual({ schema: "sales.eu", table: 'Odd "Table"' });
    expect(parseTableName(" CamelCase.Table ")).toEqual({ schema: "CamelCase", table: "Table" });
  });

  it("rejects what is not one or two names", () => {
    for (const bad of ["", ".", "a.", ".b", "a.b.c", '"unclosed', 'a"b', '""']) expect(parseTableName(bad)).toBeNull();
  });

  it("quoting round-trips any name (property)", () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1 }).filter((s) => !s.includes("\u0000")),
        fc.string({ minLength: 1 }).filter((s) => !s.includes("\u0000")),
        (schema, table) => {
          expect(parseTableName(formatTableName({ schema, table }))).toEqual({ schema, table });
        },
      ),
    );
    expect(quoteIdent('x"; DROP TABLE t; --')).toBe('"x""; DROP TABLE t; --"');
  });
});
