import type { DataSource } from "@/server/db/generated/client";
import type { Prisma } from "@/server/db/types";
import type { Connector } from "../connectors/connector";
import { failure, success, type Result } from "../result";
import { columnsChanged } from "../column-set";
import { decideDeletions } from "./delete-guardrail";
import { sampleUnseen } from "./held-back";
import { applyStage, countUnseen, createStageTable, firstStagedRepeat, passBaseline, repeatedKey, stageBatch, tombstoneUnseen } from "./mirror-rows";
import type { SyncCounts } from "./run-sync-pass";

export type MirrorResult = Result<{
  counts: SyncCounts;
  columns: string[];
  schemaChanged: boolean;
  rowsRead: number;
  /** When deletions were declined: a sample of the external ids held back (see held-back.ts). */
  declinedSample: string[];
}>;

/**
 * Reads the whole source through its connector and makes the stored rows match it, inside
 * the caller's transaction. Inserts and updates are always applied; deletions only within the
 * guardrail (or as approved). Returns a failure, with nothing to keep, when the read fails.
 */
export async function mirrorSource(
  tx: Prisma.TransactionClient,
  connector: Connector,
  source: DataSource,
  stamp: Date,
  options: {
    batchSize: number;
    timeoutMs: number;
    onBatch?: (progress: { rowsRead: number }) => void;
    /** Called once the read is complete, before the staged rows are reconciled. */
    onReadDone?: (rowsRead: number) => void;
  },
): Promise<MirrorResult> {
  const opened = await connector.fetchSnapshot({ batchSize: options.batchSize, timeoutMs: options.timeoutMs });
  if (!opened.ok) return opened;
  const snapshot = opened.value;
  try {
    await createStageTable(tx);
    const { liveBefore, orderBase } = await passBaseline(tx, source.id);
    const pass = { sourceId: source.id, stamp, ordered: snapshot.ordered, orderBase };
    const counts: SyncCounts = { inserted: 0, updated: 0, tombstoned: 0, revived: 0, declined: 0 };
    let rowsRead = 0;
    for await (const batch of snapshot.batches()) {
      if (!batch.ok) return batch;
      const staged = await stageBatch(tx, batch.value, rowsRead + 1);
      if (!staged.ok) return failure(`The source cannot be mirrored: ${staged.reason}.`);
      rowsRead += batch.value.length;
      options.onBatch?.({ rowsRead });
    }

    options.onReadDone?.(rowsRead);
    await tx.$executeRawUnsafe("ANALYZE sync_stage");
    const repeated = await firstStagedRepeat(tx);
    if (repeated !== null) return failure(`The source cannot be mirrored: ${repeatedKey(repeated)}.`);
    Object.assign(counts, await applyStage(tx, pass));
    const toRemove = await countUnseen(tx, source.id);
    const approvedCount = source.deletionsApprovedAt === null ? null : source.declinedDeletions;
    const decision = decideDeletions({ liveBefore, toRemove, approvedCount });
    let declinedSample: string[] = [];
    if (decision.apply) counts.tombstoned = await tombstoneUnseen(tx, source.id, stamp);
    else {
      counts.declined = toRemove;
      declinedSample = await sampleUnseen(tx, source.id);
    }

    return success({
      counts,
      columns: snapshot.columns,
      // The first pass defines the column set; only later changes make devices rebuild.
      schemaChanged: source.columns.length > 0 && columnsChanged(source.columns, snapshot.columns),
      rowsRead,
      declinedSample,
    });
  } finally {
    await snapshot.close();
  }
}
