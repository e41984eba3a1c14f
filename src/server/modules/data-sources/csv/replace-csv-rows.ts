import { inTransaction } from "@/server/db/transaction";
import type { Db } from "@/server/db/types";
import { AppError } from "@/server/errors/app-error";
import { withinReach, type ActingPrincipal } from "../../access/acting-principal";
import { recordAuditEvent } from "../../audit/record-audit-event";
import { hashRowData } from "../row-hash";
import { csvConfigSchema } from "../source-config";
import { columnsChanged } from "../column-set";
import { lockSourceForWrite, SOURCE_TRANSACTION_OPTIONS } from "../source-lock";
import { parseCsv } from "./parse-csv";

export interface CsvReplaceResult {
  rows: number;
  dataVersion: number;
  schemaVersion: number;
  columns: string[];
}

const INSERT_BATCH = 1000;

/**
 * A hand-uploaded CSV replaces the source's rows wholesale in one transaction and bumps
 * data_version, which tells devices to discard their copy and re-pull (spec 2.3). A file that
 * does not parse throws before anything is written.
 */
export async function replaceCsvRows(db: Db, principal: ActingPrincipal, sourceId: string, content: string): Promise<CsvReplaceResult> {
  const source = await db.dataSource.findFirst({ where: { id: sourceId, ...withinReach(principal) } });
  if (!source) throw new AppError("not_found", `No data source ${sourceId}.`);
  if (source.kind !== "csv") throw new AppError("bad_request", `Data source ${sourceId} is managed (${source.kind}); only CSV sources take uploads.`);
  const config = csvConfigSchema.safeParse(source.config ?? {});
  const keyColumn = config.success ? config.data.keyColumn : null;
  const parsed = parseCsv(content, { keyColumn });

  return inTransaction(db, async (tx) => {
    const stamp = await lockSourceForWrite(tx, sourceId);
    const startedAt = new Date();
    // Read again under the lock: another upload may have changed the columns meanwhile, and
    // the schema_version decision must compare against what is really stored.
    const current = await tx.dataSource.findUnique({ where: { id: sourceId }, select: { columns: true } });
    if (!current) throw new AppError("not_found", `No data source ${sourceId}.`);
    await tx.dataSourceRow.deleteMany({ where: { dataSourceId: sourceId } });
    for (let i = 0; i < parsed.rows.length; i += INSERT_BATCH) {
      await tx.dataSourceRow.createMany({
        data: parsed.rows.slice(i, i + INSERT_BATCH).map((row) => ({
          dataSourceId: sourceId,
          externalId: row.externalId,
          data: row.data,
          dataHash: hashRowData(row.data),
          displayOrder: row.displayOrder,
          createdAt: stamp,
          updatedAt: stamp,
        })),
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
        finishedAt: new Date(),
        inserted: parsed.rows.length,
      },
    });
    await recordAuditEvent(tx, {
      action: "data_source.csv_uploaded",
      actor: principal.actor,
      organizationId: source.organizationId,
      target: { type: "data_source", id: sourceId },
      metadata: { rows: parsed.rows.length, data_version: updated.dataVersion },
    });
    return {
      rows: parsed.rows.length,
      dataVersion: updated.dataVersion,
      schemaVersion: updated.schemaVersion,
      columns: updated.columns,
    };
  }, { ...SOURCE_TRANSACTION_OPTIONS });
}
