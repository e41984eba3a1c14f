import type { PrismaClient } from "@/server/db/types";
import { SYSTEM } from "@/server/modules/access/acting-principal";
import { approveDeletions } from "@/server/modules/data-sources/approve-deletions";
import type { SecretBox } from "@/server/modules/data-sources/credentials/secret-box";
import { runSyncPass } from "@/server/modules/data-sources/sync/run-sync-pass";
import type { FakeCrm } from "@/server/modules/data-sources/testing/fake-crm-server";
import type { Rng } from "./prng";
import type { Timeline } from "./timeline";

type CrmRecord = Record<string, unknown> & { Id: string };

/**
 * A CRM object behind a CRM-object source (the local Salesforce stand-in, with its stamps and
 * delete log), read in modified_since mode after its first pass: inserts, undeletes, updates,
 * deletions below and above the guardrail (then, sometimes, an approval), a field added. The
 * CRM's clock moves a minute between most passes, as between scheduled ones; some passes run
 * within the same minute, so a deletion waits for a later pass (D301).
 */
export class CrmWriter {
  private readonly live = new Map<string, CrmRecord>();
  private readonly removed: CrmRecord[] = [];
  private fields = ["Name", "Qty"];
  private nextKey = 1;
  private sourceId = "";

  constructor(
    private readonly deps: { db: PrismaClient; crm: FakeCrm; secrets: SecretBox; rng: Rng; timeline: Timeline },
    readonly object: string,
  ) {}

  setSource(sourceId: string): void {
    this.sourceId = sourceId;
  }

  create(): void {
    const count = this.deps.rng.int(30, 60);
    for (let i = 0; i < count; i++) this.add(this.newRecord());
    this.publish();
  }

  async step(index: number): Promise<void> {
    const { rng } = this.deps;
    const ids = [...this.live.keys()];
    const roll = rng.next();
    let touched: string[];
    let what: string;
    if (roll < 0.25 || ids.length < 15) {
      const fresh = Array.from({ length: rng.int(1, 5) }, () => this.newRecord());
      if (this.removed.length > 0 && rng.chance(0.4)) fresh.push(this.removed.splice(rng.int(0, this.removed.length - 1), 1)[0]!);
      for (const record of fresh) this.add(record);
      touched = fresh.map((record) => record.Id);
      what = `insert/undelete ${touched.join(" ")}`;
    } else if (roll < 0.55) {
      touched = rng.sample(ids, rng.int(1, 6));
      for (const id of touched) this.live.set(id, { ...this.live.get(id)!, Name: `n${rng.int(0, 9999)}`, Qty: String(rng.int(0, 99)) });
      what = `update ${touched.join(" ")}`;
    } else if (roll < 0.8) {
      touched = rng.sample(ids, rng.int(1, Math.max(1, Math.floor(ids.length * 0.3))));
      this.remove(touched);
      what = `delete ${touched.join(" ")} (below the guardrail)`;
    } else if (roll < 0.9) {
      touched = rng.sample(ids, Math.ceil(ids.length * (0.55 + rng.next() * 0.2)));
      this.remove(touched);
      what = `delete ${touched.length} of ${ids.length} (above the guardrail): ${touched.join(" ")}`;
    } else {
      const field = `Extra${this.fields.length}__c`;
      this.fields.push(field);
      for (const [id, record] of this.live) this.live.set(id, { ...record, [field]: `v${rng.int(0, 9)}` });
      touched = ids;
      what = `add field ${field}`;
    }
    this.publish();
    this.deps.timeline.add("writer", `crm step ${index}: ${what}`, touched);
    if (rng.chance(0.5)) await this.approveIfDeclined();
    if (rng.chance(0.8)) this.deps.crm.clockOffsetMs += 61_000;
    await this.pass(`crm step ${index}`);
  }

  /** The last pass: approvals applied and the delete log's minute closed, so the mirror must equal the CRM. */
  async finish(): Promise<void> {
    await this.approveIfDeclined();
    this.deps.crm.clockOffsetMs += 61_000;
    await this.pass("crm final pass");
    await this.approveIfDeclined();
    await this.pass("crm approved pass");
  }

  /** Differences between the CRM's records and the source's live rows (the mirror itself, not a device). */
  async mirrorDifferences(): Promise<string[]> {
    const rows = await this.deps.db.dataSourceRow.findMany({
      where: { dataSourceId: this.sourceId, deletedAt: null },
      select: { externalId: true, data: true },
    });
    const stored = new Map(rows.map((row) => [row.externalId, row.data as Record<string, unknown>]));
    const problems: string[] = [];
    for (const [id, record] of this.live) {
      const data = stored.get(id);
      if (!data) problems.push(`${id} is in the CRM but not live in the mirror`);
      else if (this.fields.some((field) => (data[field] ?? null) !== (record[field] ?? null)))
        problems.push(`${id} differs: mirror ${JSON.stringify(data)} vs CRM ${JSON.stringify(record)}`);
    }
    for (const id of stored.keys()) if (!this.live.has(id)) problems.push(`${id} is live in the mirror but deleted in the CRM`);
    return problems;
  }

  private async approveIfDeclined(): Promise<void> {
    const source = await this.deps.db.dataSource.findUniqueOrThrow({ where: { id: this.sourceId }, select: { declinedDeletions: true } });
    if (source.declinedDeletions === 0) return;
    const approved = await approveDeletions(this.deps.db, SYSTEM, this.sourceId);
    this.deps.timeline.add("writer", `crm: approve ${approved.count} declined deletions`);
  }

  async pass(label: string): Promise<void> {
    const outcome = await runSyncPass({ db: this.deps.db, secrets: this.deps.secrets }, this.sourceId, { trigger: "simulator", timeoutMs: 10_000 });
    if (outcome.status === "error") throw new Error(`${label}: the sync pass failed: ${outcome.error}`);
    const c = outcome.counts;
    this.deps.timeline.add(
      "writer",
      `${label}: pass committed (${outcome.status}: ${c.inserted} inserted, ${c.updated} updated, ${c.tombstoned} tombstoned, ${c.revived} revived, ${c.declined} declined)`,
    );
  }

  private publish(): void {
    // Records keep their stamp unless their values change (the stand-in compares them).
    this.deps.crm.setRecords(
      this.object,
      this.fields,
      [...this.live.values()].map((record) => ({ ...record })),
    );
  }

  private newRecord(): CrmRecord {
    const record: CrmRecord = {
      Id: `a0S${String(this.nextKey++).padStart(12, "0")}`,
      Name: `n${this.deps.rng.int(0, 9999)}`,
      Qty: String(this.deps.rng.int(0, 99)),
    };
    for (const field of this.fields.slice(2)) record[field] = `v${this.deps.rng.int(0, 9)}`;
    return record;
  }

  private add(record: CrmRecord): void {
    const { SystemModstamp: _stamp, ...values } = record;
    this.live.set(record.Id, values as CrmRecord);
  }

  private remove(ids: string[]): void {
    for (const id of ids) {
      this.removed.push(this.live.get(id)!);
      this.live.delete(id);
    }
  }
}
