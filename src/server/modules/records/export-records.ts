import type pg from "pg";
import { newRawConnection } from "@/server/db/client";
import type { PrismaClient } from "@/server/db/types";
import { csvRow } from "@/server/modules/exports/csv-cells";
import { recordFilterSql, type RecordFilters } from "./record-filters";
import { requireFormInOrganization } from "./require-form";

export const EXPORT_BATCH_SIZE = 1000;
/** The application_name of every export's own connection. */
export const EXPORT_APPLICATION_NAME = "groundwork-export";
/** The columns every export starts with; the form's fields follow, by name. */
const EXPORT_FIXED_COLUMNS = ["id", "created_by", "created_at"] as const;

export interface RecordsExport {
  /** The field names seen in the filtered set, sorted: one column each after the fixed ones. */
  fields: string[];
  /** The CSV text, header first, a batch of rows per chunk, newest record first (as the browser). */
  chunks: AsyncGenerator<string, void, undefined>;
}

/**
 * The filtered records of a form as CSV, streamed with flat memory however many there are.
 * NOTE: "one column per field seen" needs every field name before the first line, so the export
 * reads twice inside one REPEATABLE READ, READ ONLY transaction (one snapshot, so the header
 * matches the rows exactly): first the distinct keys (jsonb_object_keys), then the rows through
 * a server-side cursor, EXPORT_BATCH_SIZE at a time. A reader that stops reading leaves the
 * transaction idle: the download is cut after GROUNDWORK_EXPORT_STALL_TIMEOUT_MS (D373), and
 * Postgres ends it after 5 minutes in any case.
 *
 * The form is checked first (not_found before any byte is sent). The caller must consume or
 * `return()` the chunks, which closes the connection. `connect` gives that connection where the
 * client's own URL is not known (Next bundles keep their own copy of db/client.ts).
 */
export async function openRecordsExport(
  db: PrismaClient,
  organizationId: string,
  filters: RecordFilters,
  options: { batchSize?: number; connect?: () => pg.Client } = {},
): Promise<RecordsExport> {
  const batchSize = options.batchSize ?? EXPORT_BATCH_SIZE;
  await requireFormInOrganization(db, organizationId, filters.formId);
  // A connection of its own: the cursor lives in its transaction for as long as the download.
  const connection = options.connect ? options.connect() : newRawConnection(db);
  connection.on("error", () => undefined);
  await connection.connect();
  try {
    // Named, so an operator (and the test of D372) can count the exports in pg_stat_activity.
    await connection.query(`SET application_name = '${EXPORT_APPLICATION_NAME}'`);
    await connection.query("BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY");
    await connection.query("SET LOCAL idle_in_transaction_session_timeout = '300s'");
    const where = recordFilterSql(filters);
    const keys = await connection.query<{ key: string }>(
      `SELECT DISTINCT k AS key FROM records
         CROSS JOIN LATERAL jsonb_object_keys(CASE WHEN jsonb_typeof(field_values) = 'object' THEN field_values ELSE '{}'::jsonb END) AS k
        WHERE ${where.text}`,
      where.values as unknown[],
    );
    const fields = keys.rows.map((row) => row.key).sort();
    await connection.query(
      `DECLARE records_export NO SCROLL CURSOR FOR
         SELECT id, created_by, created_at, field_values FROM records WHERE ${where.text} ORDER BY created_at DESC, id DESC`,
      where.values as unknown[],
    );
    return { fields, chunks: streamRows(connection, fields, batchSize) };
  } catch (error) {
    await connection.end().catch(() => undefined);
    throw error;
  }
}

type Row = { id: string; created_by: string; created_at: Date; field_values: Record<string, unknown> | null };

async function* streamRows(connection: pg.Client, fields: string[], batchSize: number): AsyncGenerator<string, void, undefined> {
  try {
    yield csvRow([...EXPORT_FIXED_COLUMNS, ...fields]);
    for (;;) {
      const batch = await connection.query<Row>(`FETCH ${batchSize} FROM records_export`);
      if (batch.rows.length === 0) break;
      let text = "";
      for (const row of batch.rows) {
        const values = row.field_values && typeof row.field_values === "object" ? row.field_values : {};
        text += csvRow([row.id, row.created_by, row.created_at, ...fields.map((field) => (Object.hasOwn(values, field) ? values[field] : undefined))]);
      }
      yield text;
    }
    await connection.query("COMMIT");
  } finally {
    await connection.end().catch(() => undefined);
  }
}
