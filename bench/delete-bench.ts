import { createPrismaClient } from "@/server/db/client";
import { CLI_OPERATOR } from "@/server/modules/access/acting-principal";
import { listRows } from "@/server/modules/data-source-rows/list-rows";
import { deleteDataSource } from "@/server/modules/data-sources/manage/delete-source";
import { purgeDeletedSource } from "@/server/modules/data-sources/manage/purge-source";
import { percentile } from "./load";
import type { Fixture } from "./seed";
import { ms, type Table } from "./table";

interface DeleteBenchOptions {
  appUrl: string;
  fixture: Fixture;
  rows: number;
  table: Table;
  log: (line: string) => void;
}

/**
 * Issue 20: deleting a large source must not stall the others. The sync source (filled by the
 * sync benchmark's first pass, or here by SQL) is deleted and purged in batches while another
 * client walks the rows source page by page through the rows endpoint's own query (listRows);
 * the walk's per-page p99 is compared with the same walk on an idle database. Also the cost of
 * the statistics refresh a big write triggers (ANALYZE data_source_rows, D136).
 */
export async function runDeleteBench(options: DeleteBenchOptions): Promise<void> {
  const { appUrl, fixture, rows, table, log } = options;
  const purger = createPrismaClient(appUrl);
  const walker = createPrismaClient(appUrl);
  try {
    const held = await purger.dataSourceRow.count({ where: { dataSourceId: fixture.syncSourceId } });
    if (held < rows) {
      log(`delete: filling the sync source with ${rows - held} rows...`);
      await purger.$executeRawUnsafe(
        `INSERT INTO data_source_rows (id, data_source_id, external_id, data, data_hash, display_order, created_at, updated_at, deleted_at)
         SELECT gen_random_uuid()::text, $1, 'd' || external_id, data, data_hash, display_order, created_at, updated_at, deleted_at
           FROM data_source_rows WHERE data_source_id = $2 LIMIT $3`,
        fixture.syncSourceId,
        fixture.rowsSourceId,
        rows - held,
      );
    }
    const total = await purger.dataSourceRow.count();
    const analyzeTimes: number[] = [];
    for (let i = 0; i < 3; i++) {
      const started = performance.now();
      await purger.$executeRawUnsafe("ANALYZE data_source_rows");
      analyzeTimes.push(performance.now() - started);
    }
    analyzeTimes.sort((a, b) => a - b);
    log(`delete: ANALYZE data_source_rows (${total} rows) ${analyzeTimes.map((t) => t.toFixed(0)).join(" / ")} ms`);

    const walkQuery = { organizationId: fixture.organizationId, dataSourceId: fixture.rowsSourceId, limit: 100, includeDeleted: false };
    let stop = false;
    const walk = async (latencies: number[]) => {
      let cursor: string | undefined;
      while (!stop) {
        const started = performance.now();
        const page = await listRows(walker, { ...walkQuery, cursor });
        latencies.push(performance.now() - started);
        cursor = page.meta.next_cursor ?? undefined;
      }
    };

    const idle: number[] = [];
    const idleWalk = walk(idle);
    await new Promise((resolve) => setTimeout(resolve, 5000));
    stop = true;
    await idleWalk;

    stop = false;
    const busy: number[] = [];
    const busyWalk = walk(busy);
    const started = performance.now();
    const deleted = await deleteDataSource(purger, CLI_OPERATOR, fixture.syncSourceId, "sync");
    const requestMs = performance.now() - started;
    const purged = await purgeDeletedSource(purger, fixture.syncSourceId);
    const seconds = (performance.now() - started) / 1000;
    stop = true;
    await busyWalk;
    const sortedIdle = idle.sort((a, b) => a - b);
    const sortedBusy = busy.sort((a, b) => a - b);
    log(
      `delete: ${deleted.liveRows + deleted.tombstones} rows deleted in ${seconds.toFixed(1)} s (request ${requestMs.toFixed(0)} ms, ${purged.rows} rows + ${purged.versions} versions purged); walk p99 ${percentile(sortedBusy, 99).toFixed(1)} ms vs idle ${percentile(sortedIdle, 99).toFixed(1)} ms over ${busy.length} / ${idle.length} pages`,
    );
    const n = (deleted.liveRows + deleted.tombstones).toLocaleString("en");
    table.add(`delete: a ${n}-row source, request (source gone for readers)`, `${requestMs.toFixed(0)} ms`, "–", "–");
    table.add(`delete: a ${n}-row source, until every row is purged (batches of 5 000)`, `${seconds.toFixed(1)} s`, "–", "–");
    table.add(
      "delete: p99 of a rows walk (limit 100) on another source meanwhile (reference: the same walk idle)",
      ms(percentile(sortedBusy, 99)),
      ms(percentile(sortedIdle, 99)),
      `${(percentile(sortedBusy, 99) / percentile(sortedIdle, 99)).toFixed(2)}×`,
    );
    table.add(`statistics: ANALYZE data_source_rows at ${total.toLocaleString("en")} rows (median of 3)`, ms(analyzeTimes[1]!), "–", "–");
  } finally {
    await purger.$disconnect();
    await walker.$disconnect();
  }
}
