import type pg from "pg";
import { failure, success, type Result } from "@/server/modules/outbound/result";
import { runSyncPass, type SyncPassDeps, type SyncPassOutcome } from "../../sync/run-sync-pass";
import { cdcEndpoint, connectReplication, type CdcEndpoint } from "./customer-endpoint";
import { cdcSupport } from "./cdc-support";
import { patchCdcState, readCdcState, slotNameFor, writeCdcState, type CdcState } from "./cdc-state";
import { createSlotWithSnapshot, dropSlot } from "./slot";
import { withServiceClient } from "./service-client";

export interface CdcFullCompareOptions {
  trigger: string;
  /** Why the stream could not simply go on (no slot yet, slot lost…): kept on the source's state. */
  reason: string;
  batchSize?: number;
  timeoutMs?: number;
}

/**
 * The start of a CDC source, and its fallback (D291): (re)creates the source's slot with an
 * exported snapshot and runs a full-compare pass that reads the table as of that snapshot. The
 * stream then starts at the slot's consistent point: every commit after the read, none of the
 * ones it already saw. The state says `baselineReady: false` until the pass committed, so a
 * crash in between (or a failed pass) makes the consumer start over instead of streaming from a
 * slot whose snapshot was never applied.
 */
export async function runCdcFullCompare(deps: SyncPassDeps, sourceId: string, options: CdcFullCompareOptions): Promise<Result<SyncPassOutcome>> {
  const source = await deps.db.dataSource.findUnique({ where: { id: sourceId } });
  if (!source || source.deletingAt) return failure("the source is gone");
  const endpoint = await cdcEndpoint(source, deps);
  if (!endpoint.ok) return endpoint;
  const timeoutMs = options.timeoutMs ?? 30_000;
  const slot = slotNameFor(sourceId);

  const prepared = await prepareSlot(endpoint.value, slot, timeoutMs);
  if (!prepared.ok) return prepared;
  let replication: pg.Client;
  try {
    replication = await connectReplication(endpoint.value, timeoutMs);
  } catch (error) {
    return failure(`Could not open a replication connection: ${endpoint.value.describeError(error)}`);
  }
  try {
    let created;
    try {
      created = await createSlotWithSnapshot(replication, slot);
    } catch (error) {
      return failure(`Could not create the replication slot: ${endpoint.value.describeError(error)}`);
    }
    const previous = readCdcState(source.captureState);
    const state: CdcState = {
      slot,
      publication: prepared.value.publication,
      baselineLsn: created.consistentPoint,
      baselineReady: false,
      appliedLsn: created.consistentPoint,
      lastAppliedAt: previous?.lastAppliedAt ?? null,
      lastCommitAt: previous?.lastCommitAt ?? null,
      lagBytes: 0,
      lagCheckedAt: new Date().toISOString(),
      guard: null,
      lastFallback: options.reason,
    };
    await withServiceClient(deps.db, (client) => writeCdcState(client, sourceId, state));
    const outcome = await runSyncPass(deps, sourceId, {
      trigger: options.trigger,
      fullCompare: true,
      exportedSnapshot: created.snapshotName,
      fallbackReason: options.reason,
      ...(options.batchSize === undefined ? {} : { batchSize: options.batchSize }),
      timeoutMs,
    });
    if (outcome.syncRunId !== null && outcome.status === "error") {
      // The run says how it read the source and why it compared in full (sync history, issue 27):
      // a pass recorded that itself once it had chosen its plan (D339), with the same reason; one
      // that failed before (it could not connect) did not.
      await deps.db.syncRun.update({ where: { id: outcome.syncRunId }, data: { captureMode: "cdc", fullCompare: true, fallbackReason: options.reason } });
    }
    if (outcome.status === "ok" || outcome.status === "needs_attention") {
      await withServiceClient(deps.db, async (client) => {
        await client.query("BEGIN");
        await patchCdcState(client, sourceId, { baselineReady: true });
        await client.query("UPDATE data_sources SET last_full_compare_at = now() WHERE id = $1", [sourceId]);
        await client.query("COMMIT");
      });
    }
    return success(outcome);
  } finally {
    await replication.end().catch(() => undefined);
  }
}

/** Checks the grants, then drops the source's old slot (lost, or one whose baseline never committed). */
async function prepareSlot(endpoint: CdcEndpoint, slot: string, timeoutMs: number): Promise<Result<{ publication: string }>> {
  const client = endpoint.plainClient(timeoutMs);
  try {
    await client.connect();
    const support = await cdcSupport(client, endpoint.table, endpoint.config.keyColumn, slot);
    if (!support.supported) return failure(`Change data capture is not available: ${support.reason}`);
    await dropSlot(client, slot);
    return success({ publication: support.publication });
  } catch (error) {
    return failure(`Could not prepare the replication slot: ${endpoint.describeError(error)}`);
  } finally {
    await client.end().catch(() => undefined);
  }
}
