import { inTransaction } from "@/server/db/transaction";
import type { Db } from "@/server/db/types";
import { AppError } from "@/server/errors/app-error";
import { withinReach, type ActingPrincipal } from "../../access/acting-principal";
import { recordAuditEvent } from "../../audit/record-audit-event";
import { csvConfigSchema } from "../source-config";
import { columnsChanged } from "../column-set";
import { lockSourceForWrite, SOURCE_TRANSACTION_OPTIONS } from "../source-lock";
import { analyzeAfterUpload } from "../sync/statistics";
import { parseCsv, type CsvInput } from "./parse-csv";
import { reconcileCsvRows, type CsvChangeCounts } from "./reconcile-csv-rows";

export interface CsvReplaceResult extends CsvChangeCounts {
  /** A dry run (D496): what the upload would do; nothing was kept. */
  dryRun: boolean;
  rows: number;
  dataVersion: number;
  schemaVersion: number;
  columns: string[];
}

/**
 * A hand-uploaded CSV replaces the source's rows and bumps data_version (spec 2.3), reconciled
 * on the key column like a managed pass (D150): unchanged rows keep their id and updated_at,
 * changed rows are rewritten, rows missing from the file become tombstones, all stamped with
 * this upload's stamp. A device that never reads data_version still converges through the rows
 * endpoint alone. A file that does not parse, or is over a limit, throws before anything is written.
 * `content` may be a stream (the dashboard's upload body): it is read only after the source is found
 * within the principal's reach, and parsed as it arrives (D161).
 */
export async function replaceCsvRows(
  db: Db,
  principal: ActingPrincipal,
  sourceId: string,
  content: CsvInput,
  options: { dryRun?: boolean } = {},
): Promise<CsvReplaceResult> {
  const source = await db.dataSource.findFirst({ where: { id: sourceId, ...withinReach(principal) } });
  if (!source) throw new AppError("not_found", `No data source ${sourceId}.`);
  if (source.kind !== "csv") throw new AppError("bad_request", `Data source ${sourceId} is managed (${source.kind}); only CSV sources take uploads.`);
  const config = csvConfigSchema.safeParse(source.config ?? {});
  const keyColumn = config.success ? config.data.keyColumn : null;
  const parsed = await parseCsv(content, { keyColumn });

  const outcome = await inTransaction(
    db,
    async (tx) => {
      const stamp = await lockSourceForWrite(tx, sourceId);
      // At or before every stamp this upload writes (issue 21.9), even if the clocks disagree.
      const startedAt = new Date(Math.min(Date.now(), stamp.getTime()));
      // Read again under the lock: another upload may have changed the columns meanwhile, and
      // the schema_version decision must compare against what is really stored.
      const current = await tx.dataSource.findUnique({ where: { id: sourceId }, select: { columns: true } });
      if (!current) throw new AppError("not_found", `No data source ${sourceId}.`);
      const counts = await reconcileCsvRows(tx, sourceId, stamp, parsed.rows);
      if (options.dryRun) {
        // NOTE (D496): the dry run is the upload itself, rolled back: the same parser and limits,
        // the same lock and reconciliation against the live rows, so its counts are the ones the
        // upload would report (unless the rows change in between). Nothing of it is kept or audited.
        const stored = await tx.dataSource.findUniqueOrThrow({ where: { id: sourceId }, select: { dataVersion: true, schemaVersion: true } });
        throw new DryRunDone({
          dryRun: true,
          rows: parsed.rows.length,
          dataVersion: stored.dataVersion,
          schemaVersion: stored.schemaVersion,
          columns: parsed.columns,
          ...counts,
        });
      }
      const schemaChanged = current.columns.length > 0 && columnsChanged(current.columns, parsed.columns);
      const updated = await tx.dataSource.update({
        where: { id: sourceId },
        data: {
          columns: parsed.columns,
          dataVersion: { increment: 1 },
          ...(schemaChanged ? { schemaVersion: { increment: 1 } } : {}),
          syncStatus: "ok",
          syncError: null,
          declinedDeletions: 0,
          lastSyncedAt: stamp,
          updatedAt: stamp,
        },
      });
      await tx.syncRun.create({
        data: {
          dataSourceId: sourceId,
          trigger: "upload",
          status: "ok",
          startedAt,
          finishedAt: new Date(Math.max(Date.now(), startedAt.getTime())),
          inserted: counts.inserted,
          updated: counts.updated,
          tombstoned: counts.tombstoned,
          revived: counts.revived,
          rowsRead: parsed.rows.length,
        },
      });
      await recordAuditEvent(tx, {
        action: "data_source.csv_uploaded",
        actor: principal.actor,
        organizationId: source.organizationId,
        target: { type: "data_source", id: sourceId },
        metadata: { rows: parsed.rows.length, data_version: updated.dataVersion, ...counts },
      });
      return {
        dryRun: false,
        rows: parsed.rows.length,
        dataVersion: updated.dataVersion,
        schemaVersion: updated.schemaVersion,
        columns: updated.columns,
        ...counts,
      };
    },
    { ...SOURCE_TRANSACTION_OPTIONS },
  ).catch((error: unknown) => {
    if (error instanceof DryRunDone) return error.result;
    throw error;
  });
  if (outcome.dryRun) return outcome;
  const result = outcome;
  // Statistics after a big write (D136), for every door (dashboard route, CLI): the next rows
  // page plans as an index range scan.
  await analyzeAfterUpload(db, result);
  return result;
}

/** Thrown out of the dry run's transaction so that it rolls back, carrying what it counted. */
class DryRunDone extends Error {
  constructor(readonly result: CsvReplaceResult) {
    super("csv dry run rolled back");
  }
}
