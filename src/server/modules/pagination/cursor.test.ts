import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createHash } from "node:crypto";
import { z } from "zod";
import { cursorValues, decodeCursor, encodeCursor } from "./cursor";

const ID = "7f2c1b9e-0d4a-4c57-9a61-3f8e2b7d1c05";
const anyValue = z.union([z.string(), z.number(), z.null()]);

const binding = { endpoint: "rows.list", sort: "display_order", filters: { source: "s1" } };

describe("cursors", () => {
  it("round-trip their keyset position", () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.constant(null)), fc.uuid(), (value, id) => {
        const position: [string | number | null, string] = [Object.is(value, -0) ? 0 : value, id];
        expect(decodeCursor(encodeCursor(binding, position), binding, anyValue)).toEqual(position);
      }),
    );
  });

  it("refuse any single changed character, truncation or junk with a 400", () => {
    const cursor = encodeCursor(binding, ["2026-01-01T00:00:00.000Z", "7f2c1b9e-0d4a-4c57-9a61-3f8e2b7d1c05"]);
    const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    for (let i = 0; i < cursor.length; i++) {
      for (const replacement of [alphabet[(alphabet.indexOf(cursor[i]!) + 1) % 64]!, "~"]) {
        const tampered = cursor.slice(0, i) + replacement + cursor.slice(i + 1);
        expect(() => decodeCursor(tampered, binding, anyValue), `position ${i}`).toThrow(/Invalid cursor/);
      }
    }
    expect(() => decodeCursor(cursor.slice(0, -3), binding, anyValue)).toThrow(/Invalid cursor/);
    expect(() => decodeCursor("", binding, anyValue)).toThrow(/Invalid cursor/);
    expect(() => decodeCursor("bm90IGEgY3Vyc29y", binding, anyValue)).toThrow(/Invalid cursor/);
  });

  it("is bound to its endpoint, sort and filters", () => {
    const cursor = encodeCursor(binding, [1, ID]);
    expect(() => decodeCursor(cursor, { ...binding, sort: "-display_order" }, anyValue)).toThrow(/another endpoint, sort or set of filters/);
    expect(() => decodeCursor(cursor, { ...binding, filters: { source: "s2" } }, anyValue)).toThrow(/another endpoint/);
    expect(() => decodeCursor(cursor, { ...binding, endpoint: "records.list" }, anyValue)).toThrow(/another endpoint/);
  });

  it("refuse a well-formed cursor whose sort value is not of its column's kind (a forged cursor is a 400)", () => {
    const forged = (value: string | number | null) => encodeCursor(binding, [value, ID]);
    for (const value of ["yesterday", "2026-01-01", "2026-01-01T00:00:00Z", 1_700_000_000_000, null]) {
      expect(() => decodeCursor(forged(value), binding, cursorValues.timestamp), String(value)).toThrow(/Invalid cursor/);
    }
    expect(decodeCursor(forged("2026-01-01T00:00:00.000Z"), binding, cursorValues.timestamp)[0]).toBe("2026-01-01T00:00:00.000Z");
    for (const value of ["abc", "1;drop table x", "", "1e", 3, null]) {
      expect(() => decodeCursor(forged(value), binding, cursorValues.float8), String(value)).toThrow(/Invalid cursor/);
    }
    for (const value of ["0", "-2.5", "0.30000000000000004", "1e+300", "1e-300", "Infinity", "-Infinity", "NaN"]) {
      expect(decodeCursor(forged(value), binding, cursorValues.float8)[0]).toBe(value);
    }
    expect(() => decodeCursor(forged(42), binding, cursorValues.text)).toThrow(/Invalid cursor/);
  });

  it("cannot be forged without the server's secret: an unkeyed digest is refused", () => {
    const body = JSON.stringify({ v: 1, b: "0".repeat(16), k: ["x", ID] });
    for (const digest of [createHash("sha256").update(body).digest("base64url")]) {
      for (const length of [12, 22]) {
        const forged = Buffer.from(`${digest.slice(0, length)}${body}`, "utf8").toString("base64url");
        expect(() => decodeCursor(forged, binding, anyValue)).toThrow(/Invalid cursor/);
      }
    }
  });

  it("refuse a signed position whose id or text value Postgres could not take (NUL, lone surrogate, empty, too long)", () => {
    for (const id of [`${ID}\u0000`, "\udc00", "", "x".repeat(1025)]) {
      expect(() => decodeCursor(encodeCursor(binding, ["a", id]), binding, cursorValues.text), JSON.stringify(id)).toThrow(/Invalid cursor/);
    }
    for (const value of ["a\u0000b", "\ud800", "x".repeat(1025)]) {
      expect(() => decodeCursor(encodeCursor(binding, [value, ID]), binding, cursorValues.text), JSON.stringify(value)).toThrow(/Invalid cursor/);
    }
    expect(decodeCursor(encodeCursor(binding, ["Zoë 🌱", ID]), binding, cursorValues.text)).toEqual(["Zoë 🌱", ID]);
  });
});
