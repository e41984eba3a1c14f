import { CLI_OPERATOR } from "@/server/modules/access/acting-principal";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { useTestDatabase } from "@/test/db";
import { approveDeletions } from "../approve-deletions";
import { salesforceDate } from "../testing/fake-crm-deleted";
import { startFakeCrm, type FakeCrm } from "../testing/fake-crm-server";
import { accountId, oldAccounts, renamed, requestsSince, runOf, syncedCrmObject } from "../testing/crm-capture-fixtures";
import { storedRows, syncNow, tick } from "../testing/source-fixtures";

const db = useTestDatabase();
let crm: FakeCrm;
beforeAll(async () => {
  crm = await startFakeCrm();
});
afterAll(() => crm.close());
beforeEach(() => {
  crm.clockOffsetMs = 0;
  crm.deletedIdLimit = 600_000;
});

/**
 * The delete log answers by the minute (seconds are ignored), so a deletion shows in a window
 * that ends after its minute: the CRM's clock moves on a minute, as between two scheduled passes.
 */
const laterMinute = () => (crm.clockOffsetMs += 60_000);

describe("a CRM object in modified_since mode", () => {
  it("reads only records whose stamp moved and takes deletions from the delete log; tombstones bump updated_at, unchanged rows keep theirs", async () => {
    const records = oldAccounts(crm, 450);
    const { object, sourceId, firstRunId } = await syncedCrmObject(db.prisma, crm, records);
    expect(await runOf(db.prisma, firstRunId)).toMatchObject({
      captureMode: "modified_since",
      fullCompare: true,
      fallbackReason: expect.stringMatching(/^first pass/),
    });
    const source = await db.prisma.dataSource.findUniqueOrThrow({ where: { id: sourceId } });
    expect(source).toMatchObject({ captureMode: "modified_since", captureState: { kind: "crm_modified_since", object, stampField: "SystemModstamp" } });
    expect(source.lastFullCompareAt).not.toBeNull();
    const before = await storedRows(db.prisma, sourceId);
    await tick();

    // 3 renamed, 2 deleted, 1 new; the other 444 untouched.
    const next = renamed(records, new Set([1, 2, 3])).filter((_, i) => i !== 10 && i !== 11);
    crm.setRecords(object, ["Name"], [...next, { Id: accountId(900), Name: "New" }]);
    laterMinute();
    const from = crm.requests.length;
    const outcome = await syncNow(db.prisma, sourceId, { batchSize: 200 });
    expect(outcome).toMatchObject({ status: "ok", counts: { inserted: 1, updated: 3, tombstoned: 2, revived: 0, declined: 0 } });
    // One token, one describe, one deleted-records query, one query page: not 450 records.
    expect(requestsSince(crm, from)).toEqual([
      "POST /services/oauth2/token",
      "GET /services/data/vXX/sobjects/" + object + "/describe",
      "GET /services/data/vXX/sobjects/" + object + "/deleted/",
      "GET /services/data/vXX/query",
    ]);
    const run = await runOf(db.prisma, outcome.syncRunId);
    expect(run).toMatchObject({
      captureMode: "modified_since",
      fullCompare: false,
      fallbackReason: null,
      customerStatements: 4,
      customerRowsRead: 6,
      rowsRead: 4,
    });

    const after = await storedRows(db.prisma, sourceId);
    const stamp = after.get(accountId(1))!.updatedAt.getTime();
    expect(stamp).toBeGreaterThan(before.get(accountId(1))!.updatedAt.getTime());
    for (const i of [10, 11]) expect(after.get(accountId(i))).toMatchObject({ deletedAt: new Date(stamp), updatedAt: new Date(stamp) });
    expect(after.get(accountId(900))!.data).toMatchObject({ Name: "New" });
    expect(after.get(accountId(5))!.updatedAt).toEqual(before.get(accountId(5))!.updatedAt);
    expect(await db.prisma.dataSource.findUniqueOrThrow({ where: { id: sourceId } })).toMatchObject({
      schemaVersion: 1,
      columns: ["Id", "Name", "SystemModstamp"],
    });
  });

  it("re-reads the overlap before the mark, but rows read again unchanged keep their updated_at (content hash)", async () => {
    const records = oldAccounts(crm, 20);
    // Stamped two minutes before the first pass: inside the overlap of every later read.
    const recent = salesforceDate(new Date(crm.now().getTime() - 120_000));
    records[4] = { ...records[4]!, SystemModstamp: recent };
    const { sourceId } = await syncedCrmObject(db.prisma, crm, records);
    const before = await storedRows(db.prisma, sourceId);
    await tick();
    const outcome = await syncNow(db.prisma, sourceId);
    expect(outcome).toMatchObject({ status: "ok", counts: { inserted: 0, updated: 0, tombstoned: 0 } });
    expect(await runOf(db.prisma, outcome.syncRunId)).toMatchObject({ fullCompare: false, rowsRead: 1 });
    expect((await storedRows(db.prisma, sourceId)).get(accountId(4))!.updatedAt).toEqual(before.get(accountId(4))!.updatedAt);
  });

  it("a record whose stamp is older than the mark but that appears late (a transaction still open at the read) is caught by the overlap", async () => {
    const records = oldAccounts(crm, 10);
    const { object, sourceId } = await syncedCrmObject(db.prisma, crm, records);
    const late = salesforceDate(new Date(crm.now().getTime() - 5 * 60_000));
    crm.setRecords(object, ["Name"], [...records, { Id: accountId(50), Name: "Late", SystemModstamp: late }]);
    expect(await syncNow(db.prisma, sourceId)).toMatchObject({ status: "ok", counts: { inserted: 1 } });
  });

  it("an update landing while a pass pages through its query is read by the next pass", async () => {
    const records = oldAccounts(crm, 500);
    const { object, sourceId } = await syncedCrmObject(db.prisma, crm, records);
    const changed = renamed(records, new Set(Array.from({ length: 300 }, (_, i) => i)));
    crm.setRecords(object, ["Name"], changed);
    // Between the query's first page and its second, record 450 (not among the 300) changes.
    crm.during("page", () =>
      crm.setRecords(
        object,
        ["Name"],
        renamed(changed, new Set([450]), () => "Changed mid-pass"),
      ),
    );
    const second = await syncNow(db.prisma, sourceId, { batchSize: 200 });
    expect(second).toMatchObject({ status: "ok", counts: { updated: 300 } });
    expect((await storedRows(db.prisma, sourceId)).get(accountId(450))!.data).toMatchObject({ Name: "Account 450" });
    const third = await syncNow(db.prisma, sourceId, { batchSize: 200 });
    expect(third).toMatchObject({ status: "ok", counts: { updated: 1 } });
    expect((await storedRows(db.prisma, sourceId)).get(accountId(450))!.data).toMatchObject({ Name: "Changed mid-pass" });
  });

  it("takes its marks from the CRM's clock: a CRM two hours behind this host loses no change", async () => {
    crm.clockOffsetMs = -2 * 3_600_000;
    const records = oldAccounts(crm, 10);
    const { object, sourceId } = await syncedCrmObject(db.prisma, crm, records);
    const state = (await db.prisma.dataSource.findUniqueOrThrow({ where: { id: sourceId } })).captureState as { mark: string };
    expect(Math.abs(new Date(state.mark).getTime() - crm.now().getTime())).toBeLessThan(5_000);
    crm.setRecords(
      object,
      ["Name"],
      renamed(records, new Set([2])).filter((_, i) => i !== 7),
    );
    laterMinute();
    expect(await syncNow(db.prisma, sourceId)).toMatchObject({ status: "ok", counts: { updated: 1, tombstoned: 1 } });
  });

  it("the delete guardrail holds for the delete log: 6 of 10 declined, the mark stays, an approval applies them on the next pass", async () => {
    const records = oldAccounts(crm, 10);
    const { object, sourceId } = await syncedCrmObject(db.prisma, crm, records);
    const markBefore = ((await db.prisma.dataSource.findUniqueOrThrow({ where: { id: sourceId } })).captureState as { mark: string }).mark;
    crm.setRecords(object, ["Name"], renamed(records, new Set([8])).slice(6));
    laterMinute();
    const declined = await syncNow(db.prisma, sourceId);
    expect(declined).toMatchObject({ status: "needs_attention", counts: { updated: 1, tombstoned: 0, declined: 6 } });
    const run = await runOf(db.prisma, declined.syncRunId);
    expect(run).toMatchObject({ fullCompare: false, declined: 6 });
    expect(run.declinedSample).toEqual([0, 1, 2, 3, 4, 5].map(accountId));
    const held = await db.prisma.dataSource.findUniqueOrThrow({ where: { id: sourceId } });
    expect(held).toMatchObject({ syncStatus: "needs_attention", declinedDeletions: 6 });
    expect((held.captureState as { mark: string }).mark).toBe(markBefore);
    expect(await db.prisma.dataSourceRow.count({ where: { dataSourceId: sourceId, deletedAt: { not: null } } })).toBe(0);

    await approveDeletions(db.prisma, CLI_OPERATOR, sourceId);
    const applied = await syncNow(db.prisma, sourceId);
    expect(applied).toMatchObject({ status: "ok", counts: { tombstoned: 6, declined: 0 } });
    expect(await runOf(db.prisma, applied.syncRunId)).toMatchObject({ fullCompare: false });
  });

  it("a deleted-records query that fails fails the pass: rows and mark unchanged, the next pass catches up", async () => {
    const records = oldAccounts(crm, 10);
    const { object, sourceId } = await syncedCrmObject(db.prisma, crm, records);
    const before = await db.prisma.dataSource.findUniqueOrThrow({ where: { id: sourceId } });
    crm.setRecords(object, ["Name"], renamed(records, new Set([1])).slice(0, 9));
    laterMinute();
    crm.fail("deleted", { status: 503 });
    expect(await syncNow(db.prisma, sourceId)).toMatchObject({
      status: "error",
      error: expect.stringMatching(/^The CRM deleted-records query on Obj\w+ answered 503/),
    });
    const failed = await db.prisma.dataSource.findUniqueOrThrow({ where: { id: sourceId } });
    expect(failed.captureState).toEqual(before.captureState);
    expect((await storedRows(db.prisma, sourceId)).get(accountId(1))!.data).toMatchObject({ Name: "Account 1" });
    expect(await syncNow(db.prisma, sourceId)).toMatchObject({ status: "ok", counts: { updated: 1, tombstoned: 1 } });
  });

  it("a record deleted and then undeleted before the pass stays live", async () => {
    const records = oldAccounts(crm, 10);
    const { object, sourceId } = await syncedCrmObject(db.prisma, crm, records);
    crm.setRecords(
      object,
      ["Name"],
      records.filter((_, i) => i !== 3),
    );
    crm.setRecords(
      object,
      ["Name"],
      records.map((record) => ({ Id: record.Id, Name: record.Name })),
    );
    expect(await syncNow(db.prisma, sourceId)).toMatchObject({ status: "ok", counts: { tombstoned: 0 } });
    expect((await storedRows(db.prisma, sourceId)).get(accountId(3))!.deletedAt).toBeNull();
  });

  it("a window holding more deletions than one answer may is asked for in halves", async () => {
    const records = oldAccounts(crm, 20);
    const { object, sourceId } = await syncedCrmObject(db.prisma, crm, records);
    crm.setRecords(object, ["Name"], records.slice(2));
    crm.clockOffsetMs += 4 * 60_000;
    crm.setRecords(object, ["Name"], records.slice(4));
    crm.clockOffsetMs += 4 * 60_000;
    crm.deletedIdLimit = 3;
    const from = crm.requests.length;
    expect(await syncNow(db.prisma, sourceId)).toMatchObject({ status: "ok", counts: { tombstoned: 4 } });
    expect(requestsSince(crm, from).filter((request) => request.endsWith("/deleted/")).length).toBeGreaterThan(1);
  });
});
