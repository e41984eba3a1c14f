import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { Prisma } from "@/server/db/generated/client";
import { CLI_OPERATOR } from "@/server/modules/access/acting-principal";
import { approveDeletions } from "../approve-deletions";
import { useTestDatabase } from "@/test/db";
import { startFakeCrm, type FakeCrm } from "../testing/fake-crm-server";
import { accountId, oldAccounts, renamed, runOf, syncedCrmObject } from "../testing/crm-capture-fixtures";
import { syncNow } from "../testing/source-fixtures";

const db = useTestDatabase();
let crm: FakeCrm;
beforeAll(async () => {
  crm = await startFakeCrm();
});
afterAll(() => crm.close());
beforeEach(() => {
  crm.clockOffsetMs = 0;
});

/** The next pass: a full compare, with this reason, and what it did. */
async function expectFullCompare(sourceId: string, reason: RegExp | null, status = "ok") {
  const outcome = await syncNow(db.prisma, sourceId, { batchSize: 200 });
  expect(outcome.status).toBe(status);
  const run = await runOf(db.prisma, outcome.syncRunId);
  expect(run.fullCompare).toBe(true);
  if (reason === null) expect(run.fallbackReason).toBeNull();
  else expect(run.fallbackReason).toMatch(reason);
  return { outcome, run, source: await db.prisma.dataSource.findUniqueOrThrow({ where: { id: sourceId } }) };
}

async function expectIncremental(sourceId: string) {
  const outcome = await syncNow(db.prisma, sourceId, { batchSize: 200 });
  expect(await runOf(db.prisma, outcome.syncRunId)).toMatchObject({ captureMode: "modified_since", fullCompare: false, fallbackReason: null });
  return outcome;
}

describe("a CRM object falls back to a full compare", () => {
  it("on its first pass, then reads incrementally", async () => {
    const { sourceId, firstRunId } = await syncedCrmObject(db.prisma, crm, oldAccounts(crm, 5));
    expect(await runOf(db.prisma, firstRunId)).toMatchObject({ fullCompare: true, fallbackReason: expect.stringMatching(/^first pass/), customerRowsRead: 5 });
    await expectIncremental(sourceId);
  });

  it("when it predates capture modes (no mode), and moves to modified_since on that compare", async () => {
    const { sourceId } = await syncedCrmObject(db.prisma, crm, oldAccounts(crm, 5));
    await db.prisma.dataSource.update({ where: { id: sourceId }, data: { captureMode: null, captureState: Prisma.DbNull } });
    const { source } = await expectFullCompare(sourceId, /predates capture modes/);
    expect(source.captureMode).toBe("modified_since");
    await expectIncremental(sourceId);
  });

  it("when no high-water mark is recorded", async () => {
    const { sourceId } = await syncedCrmObject(db.prisma, crm, oldAccounts(crm, 5));
    await db.prisma.dataSource.update({ where: { id: sourceId }, data: { captureState: Prisma.DbNull } });
    const { source } = await expectFullCompare(sourceId, /no high-water mark/);
    expect(source.captureState).toMatchObject({ kind: "crm_modified_since" });
  });

  it("when the column selection changes", async () => {
    const { sourceId } = await syncedCrmObject(db.prisma, crm, oldAccounts(crm, 5), { fields: ["Name"] });
    await expectIncremental(sourceId);
    const source = await db.prisma.dataSource.findUniqueOrThrow({ where: { id: sourceId } });
    await db.prisma.dataSource.update({ where: { id: sourceId }, data: { config: { ...(source.config as object), fields: ["Name", "SystemModstamp"] } } });
    const { source: after, outcome } = await expectFullCompare(sourceId, /column set changed/);
    expect(outcome.counts.updated).toBe(5);
    expect(after).toMatchObject({ schemaVersion: 2, columns: ["Id", "Name", "SystemModstamp"] });
    await expectIncremental(sourceId);
  });

  it("when the CRM object gains a field (a column-set change): schema_version is bumped", async () => {
    const records = oldAccounts(crm, 5);
    const { object, sourceId } = await syncedCrmObject(db.prisma, crm, records);
    crm.setRecords(
      object,
      ["Name", "Tier"],
      records.map((record) => ({ ...record, Tier: "gold" })),
    );
    const { source, outcome } = await expectFullCompare(sourceId, /column set changed/);
    expect(outcome.counts.updated).toBe(5);
    expect(source).toMatchObject({ schemaVersion: 2, columns: ["Id", "Name", "Tier", "SystemModstamp"] });
  });

  it("when the object the mark was taken on changed", async () => {
    const { sourceId } = await syncedCrmObject(db.prisma, crm, oldAccounts(crm, 5));
    const source = await db.prisma.dataSource.findUniqueOrThrow({ where: { id: sourceId } });
    await db.prisma.dataSource.update({ where: { id: sourceId }, data: { captureState: { ...(source.captureState as object), object: "Contact" } } });
    await expectFullCompare(sourceId, /object or its column set changed/);
  });

  it("when the mark is older than the CRM keeps its delete log (15 days)", async () => {
    const { sourceId } = await syncedCrmObject(db.prisma, crm, oldAccounts(crm, 5));
    const source = await db.prisma.dataSource.findUniqueOrThrow({ where: { id: sourceId } });
    const old = new Date(crm.now().getTime() - 16 * 24 * 3_600_000).toISOString();
    await db.prisma.dataSource.update({ where: { id: sourceId }, data: { captureState: { ...(source.captureState as object), mark: old } } });
    const { source: after } = await expectFullCompare(sourceId, /older than the CRM keeps its delete log/);
    expect(new Date((after.captureState as { mark: string }).mark).getTime()).toBeGreaterThan(Date.now() - 60_000);
  });

  it("when the CRM says its delete log no longer covers the window (recycle bin emptied): the compare still finds the deletion", async () => {
    const records = oldAccounts(crm, 10);
    const { object, sourceId } = await syncedCrmObject(db.prisma, crm, records);
    crm.setRecords(object, ["Name"], records.slice(1));
    crm.clockOffsetMs += 60_000;
    crm.purgeDeleteLog(object);
    const { outcome } = await expectFullCompare(sourceId, /delete log cannot answer.*reaches back only to/);
    expect(outcome.counts.tombstoned).toBe(1);
  });

  it("when more deletions than one answer may hold fall within two minutes (the window cannot be split further)", async () => {
    const records = oldAccounts(crm, 10);
    const { object, sourceId } = await syncedCrmObject(db.prisma, crm, records);
    crm.setRecords(object, ["Name"], records.slice(3));
    crm.clockOffsetMs += 60_000;
    crm.deletedIdLimit = 2;
    try {
      const { outcome } = await expectFullCompare(sourceId, /more deletions of Obj\w+ within two minutes/);
      expect(outcome.counts.tombstoned).toBe(3);
    } finally {
      crm.deletedIdLimit = 600_000;
    }
  });

  it("on the daily safety-net schedule, and the compare repairs drift a stamp would never show", async () => {
    const { sourceId } = await syncedCrmObject(db.prisma, crm, oldAccounts(crm, 5));
    await expectIncremental(sourceId);
    // A stored row altered behind the stamps' back: only a full compare of the data sees it.
    await db.prisma.dataSourceRow.updateMany({
      where: { dataSourceId: sourceId, externalId: accountId(2) },
      data: { data: { Id: accountId(2), Name: "drift" } },
    });
    await db.prisma.dataSource.update({ where: { id: sourceId }, data: { lastFullCompareAt: new Date(Date.now() - 25 * 3_600_000) } });
    const { outcome, source } = await expectFullCompare(sourceId, /daily safety-net/);
    expect(outcome.counts.updated).toBe(1);
    expect(source.lastFullCompareAt!.getTime()).toBeGreaterThan(Date.now() - 60_000);
    await expectIncremental(sourceId);
  });

  it("after a full compare whose deletions the guardrail held back, until they are approved", async () => {
    const records = oldAccounts(crm, 10);
    const { object, sourceId } = await syncedCrmObject(db.prisma, crm, records);
    crm.setRecords(object, ["Name"], records.slice(6));
    await db.prisma.dataSource.update({ where: { id: sourceId }, data: { captureState: Prisma.DbNull } });
    const { outcome, source } = await expectFullCompare(sourceId, /no high-water mark/, "needs_attention");
    expect(outcome.counts).toMatchObject({ declined: 6, tombstoned: 0 });
    expect(source.captureState).toMatchObject({ heldBack: true });
    const again = await expectFullCompare(sourceId, /held back deletions/, "needs_attention");
    expect(again.outcome.counts).toMatchObject({ declined: 6, tombstoned: 0 });
    await approveDeletions(db.prisma, CLI_OPERATOR, sourceId);
    const approved = await syncNow(db.prisma, sourceId);
    expect(approved).toMatchObject({ status: "ok", counts: { tombstoned: 6 } });
    expect(await runOf(db.prisma, approved.syncRunId)).toMatchObject({ fullCompare: true, fallbackReason: expect.stringMatching(/held back deletions/) });
    expect((await db.prisma.dataSource.findUniqueOrThrow({ where: { id: sourceId } })).captureState).toMatchObject({ heldBack: false });
    await expectIncremental(sourceId);
  });

  it("when a re-read is asked for", async () => {
    const { sourceId } = await syncedCrmObject(db.prisma, crm, oldAccounts(crm, 5));
    const outcome = await syncNow(db.prisma, sourceId, { fullCompare: true });
    expect(await runOf(db.prisma, outcome.syncRunId)).toMatchObject({ fullCompare: true, fallbackReason: "a re-read was asked for" });
  });

  it("always when the object has no stamp field: it stays on compare, and says why when modified_since was chosen", async () => {
    const records = oldAccounts(crm, 5).map(({ Id, Name }) => ({ Id, Name }));
    const { object, sourceId } = await syncedCrmObject(db.prisma, crm, records, { stampField: null });
    expect(await db.prisma.dataSource.findUniqueOrThrow({ where: { id: sourceId } })).toMatchObject({ captureMode: "compare", captureState: null });
    crm.setRecords(object, ["Name"], renamed(records, new Set([1])));
    const { outcome, run } = await expectFullCompare(sourceId, null);
    expect(run.captureMode).toBe("compare");
    expect(outcome.counts.updated).toBe(1);
    await db.prisma.dataSource.update({ where: { id: sourceId }, data: { captureMode: "modified_since" } });
    await expectFullCompare(sourceId, /has no SystemModstamp or LastModifiedDate field.*stays on compare/);
  });

  it("always when the object is not replicateable (no deleted-records query)", async () => {
    const { sourceId } = await syncedCrmObject(db.prisma, crm, oldAccounts(crm, 5), { replicateable: false });
    expect((await db.prisma.dataSource.findUniqueOrThrow({ where: { id: sourceId } })).captureMode).toBe("compare");
    await db.prisma.dataSource.update({ where: { id: sourceId }, data: { captureMode: "modified_since" } });
    await expectFullCompare(sourceId, /not replicateable/);
  });

  it("reads by LastModifiedDate where the object has no SystemModstamp", async () => {
    const stamp = new Date(crm.now().getTime() - 3_600_000).toISOString().replace("Z", "+0000");
    const records = Array.from({ length: 5 }, (_, i) => ({ Id: accountId(i), Name: `A ${i}`, LastModifiedDate: stamp }));
    const { object, sourceId } = await syncedCrmObject(db.prisma, crm, records, { stampField: "LastModifiedDate" });
    crm.setRecords(object, ["Name"], renamed(records, new Set([3])));
    expect(await expectIncremental(sourceId)).toMatchObject({ counts: { updated: 1 } });
  });
});
