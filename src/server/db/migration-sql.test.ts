import { describe, expect, it } from "vitest";
import { concurrentIndexName, isNoTransaction, splitStatements } from "./migration-sql";

describe("isNoTransaction", () => {
  it("is the marker on the first line only", () => {
    expect(isNoTransaction("-- groundwork:no-transaction\nCREATE INDEX CONCURRENTLY i ON t (a);")).toBe(true);
    expect(isNoTransaction("-- groundwork:no-transaction  \r\nSELECT 1;")).toBe(true);
    expect(isNoTransaction("-- a comment\n-- groundwork:no-transaction\nSELECT 1;")).toBe(false);
    expect(isNoTransaction("SELECT 1; -- groundwork:no-transaction")).toBe(false);
  });
});

describe("splitStatements", () => {
  it("splits on statement-ending semicolons only", () => {
    const sql = [
      "-- a comment; not a statement",
      "CREATE TABLE \"a;b\" (v text DEFAULT 'x;''y');",
      "/* block; comment */ CREATE FUNCTION f() RETURNS int AS $body$ BEGIN RETURN 1; END; $body$ LANGUAGE plpgsql;",
      "SELECT $$;$$",
      "-- trailing comment only",
    ].join("\n");
    expect(splitStatements(sql)).toEqual([
      "-- a comment; not a statement\nCREATE TABLE \"a;b\" (v text DEFAULT 'x;''y')",
      "/* block; comment */ CREATE FUNCTION f() RETURNS int AS $body$ BEGIN RETURN 1; END; $body$ LANGUAGE plpgsql",
      "SELECT $$;$$\n-- trailing comment only",
    ]);
  });

  it("keeps positional parameters and a lone dollar as they are", () => {
    expect(splitStatements("SELECT 1 AS \"$\"; SELECT '$1';")).toEqual(['SELECT 1 AS "$"', "SELECT '$1'"]);
  });
});

describe("concurrentIndexName", () => {
  it("names the index of a concurrent build, quoted or not, after comments", () => {
    expect(concurrentIndexName('-- CreateIndex\nCREATE INDEX CONCURRENTLY IF NOT EXISTS "Rows_idx" ON t (a)')).toBe("Rows_idx");
    expect(concurrentIndexName("create unique index concurrently rows_IDX on t (a)")).toBe("rows_idx");
    expect(concurrentIndexName('CREATE INDEX CONCURRENTLY "a""b" ON t (a)')).toBe('a"b');
    expect(concurrentIndexName('CREATE INDEX "plain" ON t (a)')).toBeNull();
    expect(concurrentIndexName('DROP INDEX CONCURRENTLY "x"')).toBeNull();
  });
});
