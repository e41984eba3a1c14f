import { describe, expect, it } from "vitest";
import { useTestDatabase } from "@/test/db";
import { CLI_OPERATOR } from "@/server/modules/access/acting-principal";
import { listDataSources } from "@/server/modules/data-sources/list-sources";
import { PROBLEM_FILTERS } from "@/server/modules/data-sources/source-status";
import { organizationGrid } from "./organization-grid";

const db = useTestDatabase();

describe("lists that page (issue 20)", () => {
  it("the overview's organization grid pages by name and searches, with totals over everything visible", async () => {
    await db.prisma.organization.createMany({ data: Array.from({ length: 30 }, (_, i) => ({ name: `Grid ${String(i).padStart(2, "0")}` })) });
    await db.prisma.organization.create({ data: { name: "Elsewhere Ltd" } });
    const first = await organizationGrid(db.prisma, "all", {});
    expect(first.items).toHaveLength(24);
    expect(first.totals.organizations).toBe(31);
    const second = await organizationGrid(db.prisma, "all", { cursor: first.nextCursor! });
    expect(second.nextCursor).toBeNull();
    const names = [...first.items, ...second.items].map((o) => o.name);
    expect(new Set(names).size).toBe(31);
    expect(names).toEqual([...names].sort());
    // The organizations table asks for bigger pages (D330); its cursors walk the same order.
    const table = await organizationGrid(db.prisma, "all", { limit: 20 });
    const rest = await organizationGrid(db.prisma, "all", { limit: 20, cursor: table.nextCursor! });
    expect([...table.items, ...rest.items].map((o) => o.name)).toEqual(names);
    expect(rest.nextCursor).toBeNull();

    const searched = await organizationGrid(db.prisma, "all", { search: "grid 1" });
    expect(searched.items.map((o) => o.name)).toEqual(Array.from({ length: 10 }, (_, i) => `Grid 1${i}`));
    // The search is text, not a pattern: "%" and "_" match only themselves.
    await db.prisma.organization.createMany({ data: [{ name: "Grid 100% match" }, { name: "Grid_x" }] });
    expect((await organizationGrid(db.prisma, "all", { search: "0%" })).items.map((o) => o.name)).toEqual(["Grid 100% match"]);
    expect((await organizationGrid(db.prisma, "all", { search: "d_" })).items.map((o) => o.name)).toEqual(["Grid_x"]);
    // A cursor is bound to its search: another search's cursor is refused.
    await expect(organizationGrid(db.prisma, "all", { search: "else", cursor: first.nextCursor! })).rejects.toMatchObject({ code: "bad_request" });
    const own = await organizationGrid(db.prisma, [first.items[0]!.id], {});
    expect(own.items.map((o) => o.id)).toEqual([first.items[0]!.id]);
    expect(own.totals.organizations).toBe(1);
  });

  it("the support board pages past 100 sources by cursor, keeping its filters, and leaves paused sources out", async () => {
    const org = await db.prisma.organization.create({ data: { name: "Board" } });
    const other = await db.prisma.organization.create({ data: { name: "Board other" } });
    const failing = (organizationId: string, i: number, paused = false) => ({
      organizationId,
      name: `src ${String(i).padStart(3, "0")}`,
      kind: "postgres_table" as const,
      columns: [],
      syncStatus: "error" as const,
      syncError: "down",
      pausedAt: paused ? new Date() : null,
    });
    await db.prisma.dataSource.createMany({
      data: [...Array.from({ length: 130 }, (_, i) => failing(org.id, i, i % 10 === 0)), ...Array.from({ length: 5 }, (_, i) => failing(other.id, i))],
    });
    const filters = { organizationId: org.id, statuses: [...PROBLEM_FILTERS], excludePaused: true, sort: "since" as const, limit: 100 };
    const first = await listDataSources(db.prisma, CLI_OPERATOR, filters);
    expect(first.items).toHaveLength(100);
    const second = await listDataSources(db.prisma, CLI_OPERATOR, { ...filters, cursor: first.meta.next_cursor! });
    expect(second.items).toHaveLength(17);
    expect(second.meta.next_cursor).toBeNull();
    const all = [...first.items, ...second.items];
    expect(new Set(all.map((s) => s.id)).size).toBe(117);
    expect(all.every((s) => s.organizationId === org.id && s.pausedAt === null)).toBe(true);
    // The cursor keeps its filters: used with others it is refused, not silently re-filtered.
    await expect(listDataSources(db.prisma, CLI_OPERATOR, { ...filters, organizationId: other.id, cursor: first.meta.next_cursor! })).rejects.toMatchObject({
      code: "bad_request",
    });
  });
});
