import { beforeAll, describe, expect, it } from "vitest";
import { useTestDatabase } from "@/test/db";
import { createManagedSource } from "./create-managed-source";
import { createCsvSource } from "./create-csv-source";
import { listDataSources, type SourceListItem } from "./list-sources";
import { actingInOrganization, CLI_OPERATOR, type ActingPrincipal } from "../access/acting-principal";
import { useCustomerDatabase } from "./testing/customer-database";
import { createTestOrganization, syncNow, testSecrets, tick } from "./testing/source-fixtures";

const db = useTestDatabase();
const customer = useCustomerDatabase();
const ids: Record<string, string> = {};
let orgA: string;
let orgB: string;

async function tableSource(organizationId: string, name: string, rows: number, interval: number | null = null): Promise<string> {
  const table = `public.t_${name}`;
  await customer.query(`CREATE TABLE ${table} (id int PRIMARY KEY, name text)`);
  await customer.query(`INSERT INTO ${table} SELECT g, 'n' || g FROM generate_series(1, ${rows}) g`);
  const { id } = await createManagedSource(db.prisma, testSecrets, CLI_OPERATOR, {
    kind: "postgres_table",
    organizationId,
    name,
    syncIntervalSeconds: interval,
    config: { table, keyColumn: "id" },
    credentials: { url: customer.url },
  });
  return id;
}

/** Support: every organization, read-only (the transport's role check). */
const ALL_ORGANIZATIONS: ActingPrincipal = { actor: { type: "user", id: "support" }, reach: "instance" };
const member = (organizationId: string) => actingInOrganization(organizationId, { type: "user", id: "member" });
const names = (items: SourceListItem[]) => items.map((item) => item.name);

/**
 * Organization A: healthy (ok), guarded (needs attention), broken (error after an ok pass),
 * fresh (never synced), uploads (CSV, never uploaded), ticking (ok, every 60 s).
 * Organization B: other (error).
 */
beforeAll(async () => {
  orgA = await createTestOrganization(db.prisma);
  orgB = await createTestOrganization(db.prisma);
  ids.healthy = await tableSource(orgA, "healthy", 4);
  ids.guarded = await tableSource(orgA, "guarded", 10);
  ids.broken = await tableSource(orgA, "broken", 3);
  ids.fresh = await tableSource(orgA, "fresh", 1);
  ids.uploads = (await createCsvSource(db.prisma, CLI_OPERATOR, { organizationId: orgA, name: "uploads" })).id;
  ids.ticking = await tableSource(orgA, "ticking", 2, 60);
  ids.other = await tableSource(orgB, "other", 2);

  for (const name of ["healthy", "guarded", "broken", "ticking", "other"]) expect((await syncNow(db.prisma, ids[name]!)).status).toBe("ok");
  await customer.query(`DELETE FROM public.t_guarded WHERE id <= 6`);
  await customer.query(`DROP TABLE public.t_other`);
  expect((await syncNow(db.prisma, ids.other!)).status).toBe("error");
  await tick();
  expect((await syncNow(db.prisma, ids.guarded!)).status).toBe("needs_attention");
  await customer.query(`DROP TABLE public.t_broken`);
  await tick();
  expect((await syncNow(db.prisma, ids.broken!)).status).toBe("error");
  await tick();
  expect((await syncNow(db.prisma, ids.broken!)).status).toBe("error");
}, 120_000);

describe("listing data sources by status", () => {
  it("shows each source's state, row counts, columns and schedule", async () => {
    const page = await listDataSources(db.prisma, member(orgA), { organizationId: orgA, limit: 100 });
    expect(names(page.items)).toEqual(["broken", "fresh", "guarded", "healthy", "ticking", "uploads"]);
    const byName = new Map(page.items.map((item) => [item.name, item]));
    expect(byName.get("healthy")).toMatchObject({
      state: "ok",
      liveRows: 4,
      tombstones: 0,
      columns: ["id", "name"],
      syncIntervalSeconds: null,
      nextDueAt: null,
      stale: false,
      running: false,
    });
    expect(byName.get("guarded")).toMatchObject({ state: "needs_attention", syncError: null, declinedDeletions: 6, liveRows: 10 });
    expect(byName.get("broken")).toMatchObject({ state: "error", syncError: expect.stringContaining("does not exist"), liveRows: 3 });
    expect(byName.get("fresh")).toMatchObject({ state: "never_synced", syncStatus: null, lastSyncedAt: null });
    expect(byName.get("uploads")).toMatchObject({ state: "never_synced", kind: "csv", nextDueAt: null });
    const ticking = byName.get("ticking")!;
    expect(ticking.nextDueAt).toEqual(new Date(ticking.updatedAt.getTime() + 60_000));
  });

  it("filters by status (needs_attention, error, never_synced, ok), by kind and by organization", async () => {
    const all = ALL_ORGANIZATIONS;
    expect(names((await listDataSources(db.prisma, all, { statuses: ["needs_attention"] })).items)).toEqual(["guarded"]);
    expect(names((await listDataSources(db.prisma, all, { statuses: ["error"] })).items)).toEqual(["broken", "other"]);
    expect(names((await listDataSources(db.prisma, all, { statuses: ["error"], organizationId: orgB })).items)).toEqual(["other"]);
    expect(names((await listDataSources(db.prisma, all, { statuses: ["never_synced"] })).items)).toEqual(["fresh", "uploads"]);
    expect(names((await listDataSources(db.prisma, all, { statuses: ["ok"] })).items)).toEqual(["healthy", "ticking"]);
    expect(names((await listDataSources(db.prisma, all, { kind: "csv" })).items)).toEqual(["uploads"]);
    expect(names((await listDataSources(db.prisma, all, { statuses: ["needs_attention", "error"], organizationId: orgA })).items)).toEqual([
      "broken",
      "guarded",
    ]);
  });

  it("flags a scheduled source that has not completed for more than 3 intervals as stale, in whatever state", async () => {
    const ticking = (await listDataSources(db.prisma, ALL_ORGANIZATIONS, { statuses: ["ok"], kind: "postgres_table" })).items.find(
      (item) => item.name === "ticking",
    )!;
    const lastCompleted = ticking.lastSyncedAt!.getTime();
    const at = (ms: number) => listDataSources(db.prisma, ALL_ORGANIZATIONS, { statuses: ["stale"] }, new Date(lastCompleted + ms));
    // Exactly three intervals is not yet stale; a millisecond more is. Unscheduled sources never are.
    expect(names((await at(180_000)).items)).toEqual([]);
    const stale = await at(180_001);
    expect(names(stale.items)).toEqual(["ticking"]);
    expect(stale.items[0]).toMatchObject({ state: "ok", stale: true, since: ticking.lastSyncedAt });
  });

  it("sorts problems by how long they have been so, and pages without repeats", async () => {
    const runs = await db.prisma.syncRun.findMany({
      where: { dataSourceId: { in: [ids.broken!, ids.guarded!, ids.other!] }, status: { not: "ok" } },
      orderBy: { startedAt: "asc" },
    });
    const firstOf = (id: string) => runs.find((run) => run.dataSourceId === id)!.finishedAt;
    const problems = await listDataSources(db.prisma, ALL_ORGANIZATIONS, { statuses: ["needs_attention", "error", "stale"], sort: "since" });
    // other failed first, then guarded; broken has failed twice, and counts from its first failure.
    expect(names(problems.items)).toEqual(["other", "guarded", "broken"]);
    expect(problems.items.map((item) => item.since)).toEqual([firstOf(ids.other!), firstOf(ids.guarded!), firstOf(ids.broken!)]);
    expect(problems.items[2]!.stateSince).toEqual(firstOf(ids.broken!));
    expect(names((await listDataSources(db.prisma, ALL_ORGANIZATIONS, { statuses: ["needs_attention", "error"], sort: "-since" })).items)).toEqual([
      "broken",
      "guarded",
      "other",
    ]);

    const walked: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await listDataSources(db.prisma, ALL_ORGANIZATIONS, { sort: "since", limit: 2, cursor });
      walked.push(...names(page.items));
      cursor = page.meta.next_cursor ?? undefined;
    } while (cursor);
    expect(walked.sort()).toEqual(["broken", "fresh", "guarded", "healthy", "other", "ticking", "uploads"]);
    await expect(listDataSources(db.prisma, ALL_ORGANIZATIONS, { sort: "name", cursor: "bogus" })).rejects.toMatchObject({ code: "bad_request" });
  });

  it("sees only the organization within the principal's reach", async () => {
    expect(names((await listDataSources(db.prisma, member(orgB), { statuses: ["error"] })).items)).toEqual(["other"]);
    expect(names((await listDataSources(db.prisma, member(orgB), {})).items)).toEqual(["other"]);
    await expect(listDataSources(db.prisma, member(orgB), { organizationId: orgA })).rejects.toMatchObject({ code: "not_found" });
  });
});
