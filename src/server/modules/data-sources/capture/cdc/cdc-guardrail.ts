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
): { apply: boolean; window: GuardWindow } {
  const length = (input.intervalSeconds ?? DEFAULT_WINDOW_SECONDS) * 1000;
  const open =
    window && new Date(window.windowStart).getTime() + length > input.now.getTime()
      ? window
      : { windowStart: input.now.toISOString(), liveAtStart: input.liveBefore, removed: 0 };
  if (input.toRemove === 0) return { apply: true, window: open };
  if (input.declinedSoFar > 0) return { apply: false, window: open };
  const removed = open.removed + input.toRemove;
  if (exceedsGuardrail(open.liveAtStart, removed)) return { apply: false, window: open };
  return { apply: true, window: { ...open, removed } };
}

/**
 * Deletions held back: the source counts them (declined_deletions, what an approval covers) and a
 * sync run records the sample the deletion review shows, as a declining pass would.
 */
export async function recordDeclined(client: pg.ClientBase, sourceId: string, keys: string[], totalDeclined: number, stamp: Date): Promise<void> {
  await client.query(`UPDATE data_sources SET declined_deletions = $2, deletions_approved_at = NULL WHERE id = $1`, [sourceId, totalDeclined]);
  await client.query(
    `INSERT INTO sync_runs (id, data_source_id, trigger, status, started_at, finished_at, declined, declined_sample, capture_mode, full_compare)
     VALUES (gen_random_uuid(), $1, 'cdc', 'needs_attention', $2, $2, $3, $4::text[], 'cdc', false)`,
    [sourceId, stamp, totalDeclined, [...keys].sort().slice(0, DECLINED_SAMPLE_SIZE)],
  );
}
