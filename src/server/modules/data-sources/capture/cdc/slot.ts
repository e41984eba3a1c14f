import type pg from "pg";
import { quoteIdent } from "../../connectors/postgres-table/identifiers";

export interface CreatedSlot {
  /** The LSN from which the slot streams: every commit after it, none before. */
  consistentPoint: string;
  /** The snapshot the table is read with, valid while the creating connection stays open and idle. */
  snapshotName: string;
}

/**
 * Creates the source's slot on a `replication=database` connection with EXPORT_SNAPSHOT (D291):
 * a full compare that imports the snapshot reads the table exactly as of the consistent point,
 * so the stream that follows starts where the read ended, nothing lost or seen twice.
 */
export async function createSlotWithSnapshot(replication: pg.Client, slotName: string): Promise<CreatedSlot> {
  const { rows } = await replication.query<{ consistent_point: string; snapshot_name: string }>(
    `CREATE_REPLICATION_SLOT ${quoteIdent(slotName)} LOGICAL pgoutput EXPORT_SNAPSHOT`,
  );
  const row = rows[0];
  if (!row?.snapshot_name) throw new Error("the server exported no snapshot with the new slot");
  return { consistentPoint: row.consistent_point, snapshotName: row.snapshot_name };
}

export interface SlotHealth {
  exists: boolean;
  /** pg_replication_slots.wal_status: reserved, extended, unreserved, lost. */
  walStatus: string | null;
  active: boolean;
  /** WAL between the server's current position and the slot's confirmed flush: what it still holds for us. */
  lagBytes: number | null;
}

export async function slotHealth(client: pg.ClientBase, slotName: string): Promise<SlotHealth> {
  const { rows } = await client.query<{ wal_status: string | null; active: boolean; lag: string | null; invalid: boolean }>(
    `SELECT wal_status, active, pg_wal_lsn_diff(pg_current_wal_lsn(), confirmed_flush_lsn)::text AS lag,
            (to_jsonb(s) ->> 'invalidation_reason') IS NOT NULL AS invalid
       FROM pg_replication_slots s WHERE slot_name = $1`,
    [slotName],
  );
  const row = rows[0];
  if (!row) return { exists: false, walStatus: null, active: false, lagBytes: null };
  return { exists: true, walStatus: row.invalid ? "lost" : row.wal_status, active: row.active, lagBytes: row.lag === null ? null : Number(row.lag) };
}

/** Whether a slot can still stream: gone, or invalidated (its WAL removed), means a full compare. */
export function slotUsable(health: SlotHealth): { usable: true } | { usable: false; reason: string } {
  if (!health.exists) return { usable: false, reason: "the replication slot is missing" };
  if (health.walStatus === "lost") return { usable: false, reason: "the replication slot was invalidated (its WAL was removed)" };
  return { usable: true };
}

/** Drops the slot; "missing" when there was none. Fails while a consumer still streams from it. */
export async function dropSlot(client: pg.ClientBase, slotName: string): Promise<"dropped" | "missing"> {
  const { rows } = await client.query<{ dropped: boolean }>(
    `SELECT pg_drop_replication_slot(slot_name) IS NULL AS dropped FROM pg_replication_slots WHERE slot_name = $1`,
    [slotName],
  );
  return rows.length > 0 ? "dropped" : "missing";
}

/**
 * Ends a walsender still attached to the source's slot from an earlier connection of ours (a
 * dropped network path: the server notices only after wal_sender_timeout, and meanwhile refuses
 * the slot to a new stream). Safe because one consumer per source holds the claim (the worker's
 * advisory lock); only Groundwork's own connections (application_name) are touched.
 */
export async function releaseStaleStream(client: pg.ClientBase, slotName: string): Promise<boolean> {
  const { rows } = await client.query<{ ended: boolean }>(
    `SELECT pg_terminate_backend(s.active_pid) AS ended
       FROM pg_replication_slots s JOIN pg_stat_activity a ON a.pid = s.active_pid
      WHERE s.slot_name = $1 AND s.active AND a.application_name = 'groundwork-cdc'`,
    [slotName],
  );
  return rows.some((row) => row.ended);
}
