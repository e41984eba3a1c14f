import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createHash, createHmac } from "node:crypto";
import { cursorValues, decodeCursor, decodeCursorState, encodeCursor } from "./cursor";
import { cursorSecret } from "./cursor-secret";

const ID = "7f2c1b9e-0d4a-4c57-9a61-3f8e2b7d1c05";
const anyValue = (value: unknown): value is string | number | null => value === null || typeof value === "string" || typeof value === "number";

const binding = { endpoint: "rows.list", sort: "display_order", filters: { source: "s1" } };

describe("cursors", () => {
  it("carry a walk's WAL position opaquely, and only when given one (D404)", () => {
    const cursor = encodeCursor(binding, [1, ID], "2026-12-01T10:00:00.000Z", "1A/2B3C4D");
    expect(decodeCursorState(cursor, binding, anyValue)).toEqual({ position: [1, ID], snapshot: "2026-12-01T10:00:00.000Z", lsn: "1A/2B3C4D" });
    expect(decodeCursorState(encodeCursor(binding, [1, ID], "2026-12-01T10:00:00.000Z"), binding, anyValue)).toEqual({
      position: [1, ID],
      snapshot: "2026-12-01T10:00:00.000Z",
    });
  });

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

  it("read a timestamp only as an instant Postgres can store, printed as toISOString prints it", () => {
    const forged = (value: string) => encodeCursor(binding, [value, ID]);
    for (const value of [
      "2026-02-30T00:00:00.000Z",
      "2026-13-01T00:00:00.000Z",
      "2026-01-01T24:00:00.000Z",
      "2026-01-01T00:00:60.000Z",
      "0000-06-01T00:00:00.000Z",
      "+010000-01-01T00:00:00.000Z",
      "2026-01-01T00:00:00.000+00:00",
      " 2026-01-01T00:00:00.000Z",
    ]) {
      expect(() => decodeCursor(forged(value), binding, cursorValues.timestamp), value).toThrow(/Invalid cursor/);
    }
    for (const value of ["2024-02-29T23:59:59.999Z", "0001-01-01T00:00:00.000Z", "9999-12-31T23:59:59.999Z"]) {
      expect(decodeCursor(forged(value), binding, cursorValues.timestamp)[0]).toBe(value);
    }
    expect(decodeCursorState(encodeCursor(binding, [1, ID], "2026-01-01T00:00:00.000Z"), binding, anyValue).snapshot).toBe("2026-01-01T00:00:00.000Z");
  });

  it("refuse a correctly signed payload of any other shape (a leaked secret is still no 500)", () => {
    const signed = (payload: unknown) => {
      const body = JSON.stringify(payload);
      const digest = createHmac("sha256", cursorSecret()).update(body).digest("base64url").slice(0, 22);
      return Buffer.from(`${digest}${body}`, "utf8").toString("base64url");
    };
    const b = JSON.parse(
      Buffer.from(encodeCursor(binding, [1, ID]), "base64url")
        .toString("utf8")
        .slice(22),
    ).b as string;
    expect(decodeCursor(signed({ v: 1, b, k: [1, ID] }), binding, anyValue)).toEqual([1, ID]);
    for (const payload of [
      null,
      [1, b],
      "x",
      { v: 2, b, k: [1, ID] },
      { v: "1", b, k: [1, ID] },
      { v: 1, b: b.slice(1), k: [1, ID] },
      { v: 1, k: [1, ID] },
      { v: 1, b, k: [1] },
      { v: 1, b, k: [1, ID, 2] },
      { v: 1, b, k: { 0: 1, 1: ID } },
      { v: 1, b, k: [true, ID] },
      { v: 1, b, k: [{}, ID] },
      { v: 1, b, k: [1, ""] },
      { v: 1, b, k: [1, 7] },
      { v: 1, b, k: [1, "a\u0000"] },
      { v: 1, b, k: [1, ID], s: "yesterday" },
      { v: 1, b, k: [1, ID], s: null },
      { v: 1, b, k: [1, ID], x: 1 },
      { v: 1, b, k: [1, ID], l: "0/zz" },
      { v: 1, b, k: [1, ID], l: 5 },
      JSON.parse(`{"v":1,"b":"${b}","k":[1,"${ID}"],"__proto__":{}}`),
    ]) {
      expect(() => decodeCursor(signed(payload), binding, anyValue), JSON.stringify(payload)).toThrow(/Invalid cursor/);
    }
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
