import type { PrismaClient } from "@/server/db/types";
import { SYSTEM } from "@/server/modules/access/acting-principal";
import { replaceCsvRows } from "@/server/modules/data-sources/csv/replace-csv-rows";
import type { Rng } from "./prng";
import type { Timeline } from "./timeline";

/**
 * A hand-uploaded CSV source keyed on `code`: each upload keeps most rows, changes some, drops
 * some, adds some, shuffles a few (display order is the position in the file) and now and then
 * adds or drops a column. Every upload is reconciled on the key (D150) and bumps data_version.
 */
export class CsvWriter {
  private rows: Array<Record<string, string>> = [];
  private columns = ["code", "label", "n"];
  private nextKey = 1;
  private nextExtra = 1;

  constructor(
    private readonly deps: { db: PrismaClient; rng: Rng; timeline: Timeline },
    private sourceId = "",
  ) {}

  setSource(sourceId: string): void {
    this.sourceId = sourceId;
  }

  async create(): Promise<void> {
    this.rows = Array.from({ length: this.deps.rng.int(20, 40) }, () => this.newRow());
    await this.upload(
      "initial upload",
      this.rows.map((row) => row.code as string),
    );
  }

  async step(index: number): Promise<void> {
    const { rng } = this.deps;
    const touched = new Set<string>();
    const dropped = new Set(rng.sample(this.rows, rng.int(0, 4)).map((row) => row.code));
    this.rows = this.rows.filter((row) => !dropped.has(row.code));
    for (const code of dropped) touched.add(code as string);
    for (const row of rng.sample(this.rows, rng.int(0, 5))) {
      row.label = `l${rng.int(0, 9999)}`;
      touched.add(row.code as string);
    }
    for (let i = rng.int(0, 4); i > 0; i--) {
      const row = this.newRow();
      this.rows.splice(rng.int(0, this.rows.length), 0, row);
      touched.add(row.code as string);
    }
    for (let i = rng.int(0, 3); i > 0 && this.rows.length > 1; i--) {
      const [moved] = this.rows.splice(rng.int(0, this.rows.length - 1), 1);
      if (moved) {
        this.rows.splice(rng.int(0, this.rows.length), 0, moved);
        touched.add(moved.code as string);
      }
    }
    if (rng.chance(0.15)) {
      const extra = this.columns.find((column) => column.startsWith("x"));
      if (extra) {
        this.columns = this.columns.filter((column) => column !== extra);
        for (const row of this.rows) delete row[extra];
      } else {
        const column = `x${this.nextExtra++}`;
        this.columns.push(column);
        for (const row of this.rows) row[column] = `v${rng.int(0, 9)}`;
      }
      for (const row of this.rows) touched.add(row.code as string);
    }
    await this.upload(`csv step ${index}`, touched);
  }

  private newRow(): Record<string, string> {
    const row: Record<string, string> = { code: `c${this.nextKey++}`, label: `l${this.deps.rng.int(0, 9999)}`, n: String(this.deps.rng.int(0, 99)) };
    for (const column of this.columns.slice(3)) row[column] = "v0";
    return row;
  }

  private async upload(label: string, touched: Iterable<string>): Promise<void> {
    const lines = [this.columns.join(","), ...this.rows.map((row) => this.columns.map((column) => row[column] ?? "").join(","))];
    const result = await replaceCsvRows(this.deps.db, SYSTEM, this.sourceId, `${lines.join("\n")}\n`);
    this.deps.timeline.add(
      "writer",
      `${label}: upload committed (${result.rows} rows, data_version ${result.dataVersion}, schema_version ${result.schemaVersion})`,
      touched,
    );
  }
}
