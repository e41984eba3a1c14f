import type pg from "pg";
import { newRawConnection } from "@/server/db/client";
import type { PrismaClient } from "@/server/db/types";
import { csvRow } from "@/server/modules/exports/csv-cells";
import type { ActingPrincipal } from "@/server/modules/access/acting-principal";
import { recordAuditEvent } from "@/server/modules/audit/record-audit-event";
import { requireSource } from "@/server/modules/access/require-source";
import { EXPORT_APPLICATION_NAME, EXPORT_BATCH_SIZE } from "@/server/modules/records/export-records";

/**
 * The export's own columns, after the source's: underscored so they never collide with a source
 * column (a table's own `updated_at` is common), as Airbyte's `_airbyte_*` columns (D452).
 */
const ROWS_EXPORT_OWN_COLUMNS = ["_external_id", "_updated_at"] as const;
const ROWS_EXPORT_DELETED_COLUMN = "_deleted_at";

export interface RowsExportOptions {
  /** Tombstones too (with `_deleted_at`); default: live rows only. */
  includeDeleted?: boolean;
  batchSize?: number;
  /** The export's own connection, where the Prisma client's URL is not known (Next bundles). */
  connect?: () => pg.Client;
}

export interface RowsExport {
  source: { id: string; name: string; organizationId: string };
  /** The header: the source's columns in the source's own order (D450), then the export's own. */
  header: string[];
  chunks: AsyncGenerator<string, void, undefined>;
  /** Rows written so far (the whole count once `chunks` is done). */
  rowsWritten(): number;
}

/**
 * A source's rows as CSV, in display order, streamed with flat memory whatever the count (D451):
 * one connection of its own, one REPEATABLE READ, READ ONLY snapshot, a server-side cursor read
 * EXPORT_BATCH_SIZE rows at a time from the rows-page index of the same order. The source is
 * checked first (not_found before any byte), then the export is audited (D453). The dashboard's
 * download and `source rows-export` both call this; the caller consumes or `return()`s the chunks,
 * which ends the connection. The dashboard bounds concurrent calls with the export pool (D372).
 */
export async function openRowsExport(db: PrismaClient, principal: ActingPrincipal, sourceId: string, options: RowsExportOptions = {}): Promise<RowsExport> {
  const includeDeleted = options.includeDeleted ?? false;
  const source = await requireSource(db, principal, sourceId);
  const header = [...source.columns, ...ROWS_EXPORT_OWN_COLUMNS, ...(includeDeleted ? [ROWS_EXPORT_DELETED_COLUMN] : [])];
  const connection = options.connect ? options.connect() : newRawConnection(db);
  connection.on("error", () => undefined);
  await connection.connect();
  try {
    await connection.query(`SET application_name = '${EXPORT_APPLICATION_NAME}'`);
    await connection.query("BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY");
    await connection.query("SET LOCAL idle_in_transaction_session_timeout = '300s'");
    // The ORDER BY is the rows page's display-order key: read from its index (live or all rows), no sort.
    await connection.query(
      `DECLARE rows_export NO SCROLL CURSOR FOR
         SELECT external_id, data, updated_at, deleted_at FROM data_source_rows
          WHERE data_source_id = $1${includeDeleted ? "" : " AND deleted_at IS NULL"}
          ORDER BY COALESCE(display_order, 'Infinity'::float8), id`,
      [source.id],
    );
  } catch (error) {
    await connection.end().catch(() => undefined);
    throw error;
  }
  await recordAuditEvent(db, {
    action: "data_source.rows_exported",
    actor: principal.actor,
    organizationId: source.organizationId,
    target: { type: "data_source", id: source.id },
    metadata: { include_deleted: includeDeleted, columns: source.columns.length },
  });
  const counter = { rows: 0 };
  return {
    source: { id: source.id, name: source.name, organizationId: source.organizationId },
    header,
    chunks: streamRows(connection, source.columns, header, includeDeleted, options.batchSize ?? EXPORT_BATCH_SIZE, counter),
    rowsWritten: () => counter.rows,
  };
}

type Row = { external_id: string; data: unknown; updated_at: Date; deleted_at: Date | null };

async function* streamRows(
  connection: pg.Client,
  columns: string[],
  header: string[],
  includeDeleted: boolean,
  batchSize: number,
  counter: { rows: number },
): AsyncGenerator<string, void, undefined> {
  try {
    yield csvRow(header);
    for (;;) {
      const batch = await connection.query<Row>(`FETCH ${batchSize} FROM rows_export`);
      if (batch.rows.length === 0) break;
      let text = "";
      for (const row of batch.rows) {
        const data = row.data !== null && typeof row.data === "object" && !Array.isArray(row.data) ? (row.data as Record<string, unknown>) : {};
        const cells: unknown[] = columns.map((column) => (Object.hasOwn(data, column) ? data[column] : undefined));
        cells.push(row.external_id, row.updated_at);
        if (includeDeleted) cells.push(row.deleted_at);
        text += csvRow(cells);
      }
      counter.rows += batch.rows.length;
      yield text;
    }
    await connection.query("COMMIT");
  } finally {
    await connection.end().catch(() => undefined);
  }
}
