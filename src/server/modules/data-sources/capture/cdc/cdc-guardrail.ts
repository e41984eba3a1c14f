import type pg from "pg";
import { exceedsGuardrail } from "../../sync/delete-guardrail";
import { DECLINED_SAMPLE_SIZE } from "../../sync/held-back";
import type { CdcState } from "./cdc-state";

type GuardWindow = NonNullable<CdcState["guard"]>;

/** Without a schedule, the window a pass would have covered by default (the 15-minute interval). */
const DEFAULT_WINDOW_SECONDS = 15 * 60;

/**
 * The delete guardrail (spec 8) over a stream (D293). A pass compares the source once an interval,
 * so it sees every deletion of that interval at once; a stream sees them one commit at a time,
 * and a mass deletion spread over many small commits would slip under a per-commit rule. So the
 * deletions applied within one window (the source's sync interval) count together, against the
 * live rows when the window opened: past half of them, the deletion is held back (not applied,
 * the rows stay live), the source needs attention, and the owner's approval lets the next pass
 * apply them, as in passes. While deletions are held back, later ones are held back too.
 */
export function guardDeletions(
  window: CdcState["guard"],
  input: { liveBefore: number; toRemove: number; declinedSoFar: number; intervalSeconds: number | null; now: Date },
): { apply: boolean; window: GuardWindow | null } {
  const length = (input.intervalSeconds ?? DEFAULT_WINDOW_SECONDS) * 1000;
  const current = window && new Date(window.windowStart).getTime() + length > input.now.getTime() ? window : null;
  // NOTE: only a deletion opens a window: liveBefore is counted only when something is to be removed
  // (apply-changes.ts), so a window opened by an insert or update would start at 0 live rows and hold
  // every later deletion in it as a mass deletion (seen in the topology test's CDC failover).
  if (input.toRemove === 0) return { apply: true, window: current };
  const open = current ?? { windowStart: input.now.toISOString(), liveAtStart: input.liveBefore, removed: 0 };
  if (input.declinedSoFar > 0) return { apply: false, window: open };
  const removed = open.removed + input.toRemove;
  if (exceedsGuardrail(open.liveAtStart, removed)) return { apply: false, window: open };
  return { apply: true, window: { ...open, removed } };
}

/**
 * Deletions held back: each key is kept (cdc_held_deletions, D327) and the source counts them
 * (declined_deletions, what an approval covers), and a sync run records the sample the deletion
 * review shows, as a declining pass would. NOTE: a key already held is not counted again: a row
 * deleted, written again and deleted again is one deletion awaiting approval, not two.
 */
export async function recordDeclined(client: pg.ClientBase, sourceId: string, keys: string[], stamp: Date): Promise<void> {
  const held = await client.query(
    `INSERT INTO cdc_held_deletions (data_source_id, external_id) SELECT $1, key FROM unnest($2::text[]) AS key ON CONFLICT DO NOTHING`,
    [sourceId, keys],
  );
  const { rows } = await client.query<{ total: number }>(
    `UPDATE data_sources SET declined_deletions = declined_deletions + $2, deletions_approved_at = NULL WHERE id = $1 RETURNING declined_deletions AS total`,
    [sourceId, held.rowCount ?? 0],
  );
  await client.query(
    `INSERT INTO sync_runs (id, data_source_id, trigger, status, started_at, finished_at, declined, declined_sample, capture_mode, full_compare)
     VALUES (gen_random_uuid(), $1, 'cdc', 'needs_attention', $2, $2, $3, $4::text[], 'cdc', false)`,
    [sourceId, stamp, rows[0]?.total ?? 0, [...keys].sort().slice(0, DECLINED_SAMPLE_SIZE)],
  );
}

/**
 * Held-back rows the customer wrote again (`present`: they exist at the customer now) are no
 * longer deletions awaiting approval: the count drops by them. Returns the deletions still
 * declined. NOTE: only keys the stream held are known; a pass's declined count (it holds no keys)
 * stays as it is until the next pass counts again.
 */
export async function releaseHeld(client: pg.ClientBase, sourceId: string, declined: number, present: string[]): Promise<number> {
  if (present.length === 0) return declined;
  const released = await client.query(`DELETE FROM cdc_held_deletions WHERE data_source_id = $1 AND external_id = ANY($2::text[])`, [sourceId, present]);
  if (!released.rowCount) return declined;
  const { rows } = await client.query<{ total: number }>(
    `UPDATE data_sources SET declined_deletions = GREATEST(declined_deletions - $2, 0) WHERE id = $1 RETURNING declined_deletions AS total`,
    [sourceId, released.rowCount],
  );
  return rows[0]?.total ?? 0;
}
