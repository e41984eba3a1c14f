import { describe, expect, it } from "vitest";
import { useTestDatabase } from "@/test/db";
import { actingInOrganization, CLI_OPERATOR } from "@/server/modules/access/acting-principal";
import type { ReadingPrincipal } from "@/server/modules/access/reading-principal";
import { listOrganizations, type ListOrganizationsQuery } from "./list-organizations";

const db = useTestDatabase();

type Query = Omit<ListOrganizationsQuery, "principal" | "limit" | "sort"> & Partial<Pick<ListOrganizationsQuery, "principal" | "limit" | "sort">>;

const list = (query: Query) => listOrganizations(db.prisma, { limit: 20, sort: "name", principal: CLI_OPERATOR, ...query });
const names = async (query: Query) => (await list({ limit: 100, ...query })).items.map((o) => o.name);

/** Every page of a walk, following next_cursor until it is null. */
async function walk(query: Query): Promise<{ ids: string[]; names: string[]; pages: number }> {
  const ids: string[] = [];
  const seen: string[] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const page = await list({ ...query, cursor });
    pages++;
    ids.push(...page.items.map((o) => o.id));
    seen.push(...page.items.map((o) => o.name));
    cursor = page.meta.next_cursor ?? undefined;
  } while (cursor);
  return { ids, names: seen, pages };
}

async function organizations(...names: string[]): Promise<Record<string, string>> {
  const byName: Record<string, string> = {};
  for (const name of names) byName[name] = (await db.prisma.organization.create({ data: { name } })).id;
  return byName;
}

describe("listOrganizations' name filter (the dashboard's organization picker, D332)", () => {
  it("keeps names containing the text, case-insensitively, trimmed; a blank filter is no filter", async () => {
    await organizations("Filter ACME Water", "Filter big acme", "Filter Acne", "Filter Ácme");
    expect(await names({ nameContains: "acme" })).toEqual(["Filter ACME Water", "Filter big acme"]);
    expect(await names({ nameContains: "  ACME  " })).toEqual(["Filter ACME Water", "Filter big acme"]);
    expect(await names({ nameContains: "filter a" })).toEqual(["Filter ACME Water", "Filter Acne"]);
    expect(await names({ nameContains: "nothing like it" })).toEqual([]);
    const all = await names({});
    expect(await names({ nameContains: "   " })).toEqual(all);
    expect(await names({ nameContains: "" })).toEqual(all);
  });

  it("matches %, _ and \\ literally, not as LIKE wildcards", async () => {
    await organizations("Lit 100% Water", "Lit 1000 Water", "Lit a_b", "Lit axb", "Lit C:\\data", "Lit C:data", "Lit C:\\\\data");
    expect(await names({ nameContains: "100%" })).toEqual(["Lit 100% Water"]);
    expect(await names({ nameContains: "%" })).toEqual(["Lit 100% Water"]);
    expect(await names({ nameContains: "a_b" })).toEqual(["Lit a_b"]);
    expect(await names({ nameContains: "lit _" })).toEqual([]);
    expect(await names({ nameContains: "C:\\data" })).toEqual(["Lit C:\\data"]);
    expect(await names({ nameContains: "\\" })).toEqual(["Lit C:\\\\data", "Lit C:\\data"]);
  });

  it("refuses a filter Postgres cannot take with a 400, not a 500", async () => {
    await expect(list({ nameContains: "a\u0000b" })).rejects.toMatchObject({ code: "bad_request" });
  });

  it("pages a search by cursor in name order with no duplicate or gap, ties on a name broken by id", async () => {
    const made = Array.from({ length: 45 }, (_, i) => `Paged ${String(i).padStart(2, "0")}`);
    // Five organizations with one name straddle a page boundary (the 20th to 24th rows).
    await organizations(...made.slice(0, 19), ...Array.from({ length: 5 }, () => "Paged 19 same"), ...made.slice(19));
    await organizations("Elsewhere 1", "Elsewhere 2");
    const expected = await db.prisma.organization.findMany({ where: { name: { startsWith: "Paged" } }, orderBy: [{ name: "asc" }, { id: "asc" }] });
    expect(expected).toHaveLength(50);

    const up = await walk({ nameContains: "paged" });
    expect(up.pages).toBe(3);
    expect(up.ids).toEqual(expected.map((o) => o.id));
    expect(new Set(up.ids).size).toBe(50);

    const down = await walk({ nameContains: "PAGED", sort: "-name" });
    expect(down.ids).toEqual(expected.map((o) => o.id).reverse());
  });

  it("binds its cursor to the filter: another search's, or the unfiltered list's, is refused", async () => {
    await organizations(...Array.from({ length: 25 }, (_, i) => `Bound ${String(i).padStart(2, "0")}`));
    const searched = await list({ nameContains: "bound" });
    const unfiltered = await list({});
    expect(searched.meta.next_cursor).not.toBeNull();
    expect(unfiltered.meta.next_cursor).not.toBeNull();
    const refused = { code: "bad_request", message: expect.stringMatching(/another endpoint, sort or set of filters/) };
    await expect(list({ nameContains: "bound 1", cursor: searched.meta.next_cursor! })).rejects.toMatchObject(refused);
    await expect(list({ cursor: searched.meta.next_cursor! })).rejects.toMatchObject(refused);
    await expect(list({ nameContains: "bound", cursor: unfiltered.meta.next_cursor! })).rejects.toMatchObject(refused);
    // The same search, trimmed or not, goes on.
    expect((await list({ nameContains: " bound ", cursor: searched.meta.next_cursor! })).items.map((o) => o.name)).toEqual(
      Array.from({ length: 5 }, (_, i) => `Bound ${20 + i}`),
    );
  });

  it("keeps the reach: a member sees only their organizations, one organization only itself, owners and support all", async () => {
    const ids = await organizations("Reach North", "Reach South", "Reach East", "Reach West");
    const member: ReadingPrincipal = { actor: { type: "user", id: "u1" }, reach: { organizationIds: [ids["Reach West"]!, ids["Reach North"]!] } };
    expect(await names({ nameContains: "reach", principal: member })).toEqual(["Reach North", "Reach West"]);
    expect(await names({ nameContains: "south", principal: member })).toEqual([]);
    expect(await names({ principal: member })).toEqual(["Reach North", "Reach West"]);
    const nobody: ReadingPrincipal = { actor: { type: "user", id: "u2" }, reach: { organizationIds: [] } };
    expect(await names({ principal: nobody })).toEqual([]);
    const one = actingInOrganization(ids["Reach East"]!, { type: "api_key", id: "k1" });
    expect(await names({ nameContains: "reach", principal: one })).toEqual(["Reach East"]);
    expect(await names({ nameContains: "reach" })).toEqual(["Reach East", "Reach North", "Reach South", "Reach West"]);

    // A member's cursor walks only their organizations and is refused to another reader.
    const first = await list({ nameContains: "reach", principal: member, limit: 1 });
    expect(first.items.map((o) => o.name)).toEqual(["Reach North"]);
    const second = await list({ nameContains: "reach", principal: member, limit: 1, cursor: first.meta.next_cursor! });
    expect(second.items.map((o) => o.name)).toEqual(["Reach West"]);
    expect(second.meta.next_cursor).toBeNull();
    await expect(list({ nameContains: "reach", limit: 1, cursor: first.meta.next_cursor! })).rejects.toMatchObject({ code: "bad_request" });
  });
});
