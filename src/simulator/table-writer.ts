import type { PrismaClient } from "@/server/db/types";
import { SYSTEM } from "@/server/modules/access/acting-principal";
import { approveDeletions } from "@/server/modules/data-sources/approve-deletions";
import type { SecretBox } from "@/server/modules/data-sources/credentials/secret-box";
import { runSyncPass } from "@/server/modules/data-sources/sync/run-sync-pass";
import type { ChangeStream } from "./change-stream";
import type { Rng } from "./prng";
import type { Timeline } from "./timeline";

/** The customer's database: a pg.Pool, or the test harness's customer database. */
export interface CustomerQueries {
  query(sql: string, params?: unknown[]): Promise<unknown>;
}

interface CustomerRow {
  id: string;
  name: string;
  qty: number;
  position: number;
}

/**
 * The customer's own table behind a Postgres-table source, and the passes that mirror it:
 * inserts (some reviving deleted keys), updates, display-order moves with ties, deletions below
 * and above the guardrail (then, sometimes, an owner's approval), columns added and dropped.
 */
export class TableWriter {
  private readonly live = new Map<string, CustomerRow>();
  private readonly removed: string[] = [];
  private extras: string[] = [];
  private nextKey = 1;
  private nextExtra = 1;

  constructor(
    private readonly deps: { db: PrismaClient; customer: CustomerQueries; secrets: SecretBox; rng: Rng; timeline: Timeline },
    readonly table: string,
    private sourceId = "",
  ) {}

  /** Set for a CDC source: its consumer commits the changes, passes only what a stream cannot see. */
  private stream: ChangeStream | null = null;
  /** Changes the CDC consumer applied (each waited for). */
  streamedApplies = 0;

  setSource(sourceId: string, stream: ChangeStream | null = null): void {
    this.sourceId = sourceId;
    this.stream = stream;
  }

  async create(): Promise<void> {
    const { rng } = this.deps;
    await this.deps.customer.query(`CREATE TABLE ${this.table} (id text PRIMARY KEY, name text NOT NULL, qty int NOT NULL, position int)`);
    const count = rng.int(40, 80);
    const rows = Array.from({ length: count }, () => this.newRow(count));
    await this.insert(rows);
  }

  /** A random change to the customer's table, then a sync pass (or, streamed, its apply). */
  async step(index: number): Promise<void> {
    const { rng } = this.deps;
    const mark = await this.stream?.mark();
    const roll = rng.next();
    const ids = [...this.live.keys()];
    const touched: string[] = [];
    let what: string;
    if (roll < 0.2 || ids.length < 20) {
      const fresh = Array.from({ length: rng.int(1, 6) }, () => this.newRow(ids.length));
      if (this.removed.length > 0 && rng.chance(0.4)) {
        const revived = this.removed.splice(rng.int(0, this.removed.length - 1), 1)[0] as string;
        fresh.push({ ...this.newRow(ids.length), id: revived });
      }
      await this.insert(fresh);
      touched.push(...fresh.map((row) => row.id));
      what = `insert ${fresh.map((row) => `${row.id}(${row.position})`).join(" ")}`;
    } else if (roll < 0.4) {
      const chosen = rng.sample(ids, rng.int(1, 6));
      const rows = chosen.map((id) => this.live.get(id) as CustomerRow);
      for (const row of rows) {
        row.name = `n${rng.int(0, 9999)}`;
        row.qty = rng.int(0, 99);
      }
      await this.deps.customer.query(
        `UPDATE ${this.table} t SET name = u.name, qty = u.qty FROM unnest($1::text[], $2::text[], $3::int[]) AS u(id, name, qty) WHERE t.id = u.id`,
        [chosen, rows.map((row) => row.name), rows.map((row) => row.qty)],
      );
      touched.push(...chosen);
      what = `update ${chosen.join(" ")}`;
    } else if (roll < 0.65) {
      const chosen = rng.sample(ids, rng.int(1, 8));
      const moves: string[] = [];
      const rows = chosen.map((id) => this.live.get(id) as CustomerRow);
      for (const row of rows) {
        const from = row.position;
        // A small range: ties are common, and rows jump both ahead of and behind a walk's cursor.
        row.position = rng.int(0, Math.ceil(ids.length / 2));
        moves.push(`${row.id} ${from}→${row.position}`);
      }
      await this.deps.customer.query(
        `UPDATE ${this.table} t SET position = u.position FROM unnest($1::text[], $2::int[]) AS u(id, position) WHERE t.id = u.id`,
        [chosen, rows.map((row) => row.position)],
      );
      touched.push(...chosen);
      what = `move ${moves.join(", ")}`;
    } else if (roll < 0.85) {
      const chosen = rng.sample(ids, rng.int(1, Math.max(1, Math.floor(ids.length * 0.3))));
      await this.remove(chosen);
      touched.push(...chosen);
      what = `delete ${chosen.join(" ")} (below the guardrail)`;
    } else if (roll < 0.92) {
      const chosen = rng.sample(ids, Math.ceil(ids.length * (0.55 + rng.next() * 0.2)));
      await this.remove(chosen);
      touched.push(...chosen);
      what = `delete ${chosen.length} of ${ids.length} rows (above the guardrail): ${chosen.join(" ")}`;
    } else if (this.extras.length > 0 && rng.chance(0.5)) {
      const column = this.extras.splice(rng.int(0, this.extras.length - 1), 1)[0] as string;
      await this.deps.customer.query(`ALTER TABLE ${this.table} DROP COLUMN ${column}`);
      touched.push(...ids);
      what = `drop column ${column}`;
    } else {
      const column = `extra_${this.nextExtra++}`;
      this.extras.push(column);
      await this.deps.customer.query(`ALTER TABLE ${this.table} ADD COLUMN ${column} text DEFAULT 'v${rng.int(0, 9)}'`);
      touched.push(...ids);
      what = `add column ${column}`;
    }
    this.deps.timeline.add("writer", `table step ${index}: ${what}`, touched);
    const label = `table step ${index}`;
    if (!this.stream || mark === undefined) {
      if (rng.chance(0.5)) await this.approveIfDeclined();
      return this.pass(label);
    }
    // A column added or dropped writes no row: the stream sees it with the next row change only
    // (D296), so the owner's "sync now" pass commits it; so does an approval, as in production.
    const schemaOnly = /^(add|drop) column /.test(what);
    if (!schemaOnly) {
      await this.stream.applied(mark, label);
      this.streamedApplies++;
      this.deps.timeline.add("writer", `${label}: the CDC consumer applied it`);
    }
    const approved = rng.chance(0.5) && (await this.approveIfDeclined());
    if (schemaOnly || approved) await this.pass(`${label} (${schemaOnly ? "column change" : "after the approval"})`);
  }

  /** The source's first full compare: a pass, or for a CDC source its consumer's (from the slot's snapshot). */
  async firstPass(): Promise<void> {
    if (!this.stream) return this.pass("first pass");
    await this.stream.baseline();
    this.deps.timeline.add("writer", "first pass: the CDC consumer's full compare committed");
  }

  /** A last pass before devices settle; a CDC source's consumer already applied every change. */
  async finalPass(): Promise<void> {
    if (!this.stream) await this.pass("final pass");
  }

  async approveIfDeclined(): Promise<boolean> {
    const source = await this.deps.db.dataSource.findUniqueOrThrow({ where: { id: this.sourceId }, select: { declinedDeletions: true } });
    if (source.declinedDeletions === 0) return false;
    const approved = await approveDeletions(this.deps.db, SYSTEM, this.sourceId);
    this.deps.timeline.add("writer", `approve ${approved.count} declined deletions`);
    return true;
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

  private newRow(size: number): CustomerRow {
    const { rng } = this.deps;
    return { id: `r${this.nextKey++}`, name: `n${rng.int(0, 9999)}`, qty: rng.int(0, 99), position: rng.int(0, Math.ceil(size / 2)) };
  }

  private async insert(rows: CustomerRow[]): Promise<void> {
    await this.deps.customer.query(`INSERT INTO ${this.table} (id, name, qty, position) SELECT * FROM unnest($1::text[], $2::text[], $3::int[], $4::int[])`, [
      rows.map((row) => row.id),
      rows.map((row) => row.name),
      rows.map((row) => row.qty),
      rows.map((row) => row.position),
    ]);
    for (const row of rows) this.live.set(row.id, row);
  }

  private async remove(ids: string[]): Promise<void> {
    await this.deps.customer.query(`DELETE FROM ${this.table} WHERE id = ANY($1)`, [ids]);
    for (const id of ids) {
      this.live.delete(id);
      this.removed.push(id);
    }
  }
}
