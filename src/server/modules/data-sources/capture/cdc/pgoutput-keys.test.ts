import { describe, expect, it } from "vitest";
import type { Pgoutput } from "pg-logical-replication";
import { noteChange, type TableChanges } from "./pgoutput-keys";

const relation = { tag: "relation", schema: "public", name: "items", keyColumns: ["id"], columns: [] } as unknown as Pgoutput.MessageRelation;
const other = { ...relation, name: "other" } as Pgoutput.MessageRelation;
const table = { schema: "public", table: "items" };

describe("keys touched by pgoutput messages", () => {
  it("collects inserted, updated (old and new key) and deleted keys of the source's table only", () => {
    const changes: TableChanges = { keys: new Set(), truncated: false };
    noteChange(changes, { tag: "insert", relation, new: { id: "1", v: "a" } }, table, "id");
    noteChange(changes, { tag: "update", relation, key: { id: "2" }, old: null, new: { id: "3", v: "b" } }, table, "id");
    noteChange(changes, { tag: "delete", relation, key: { id: "4" }, old: null }, table, "id");
    noteChange(changes, { tag: "insert", relation: other, new: { id: "9" } }, table, "id");
    expect([...changes.keys].sort()).toEqual(["1", "2", "3", "4"]);
    expect(changes.truncated).toBe(false);
  });
  it("notes a truncate of the source's table", () => {
    const changes: TableChanges = { keys: new Set(), truncated: false };
    noteChange(changes, { tag: "truncate", cascade: false, restartIdentity: false, relations: [other] }, table, "id");
    expect(changes.truncated).toBe(false);
    noteChange(changes, { tag: "truncate", cascade: false, restartIdentity: false, relations: [relation] }, table, "id");
    expect(changes.truncated).toBe(true);
  });
});
