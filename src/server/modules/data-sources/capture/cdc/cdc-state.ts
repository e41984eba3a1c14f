import { z } from "zod";
import type pg from "pg";

/**
 * What CDC keeps between applies, under the `cdc` key of data_sources.capture_state (other modes
 * keep theirs beside it). Never a secret.
 */
const cdcStateSchema = z.object({
  slot: z.string(),
  publication: z.string(),
  /** The slot's consistent point: the full compare read the table exactly as of it. */
  baselineLsn: z.string().nullable(),
  /** False from the slot's creation until its full compare committed: a crash in between starts over. */
  baselineReady: z.boolean(),
  /** End of the last customer commit applied (written in the apply's own transaction: the dedupe point). */
  appliedLsn: z.string().nullable(),
  /** When the last commit was applied here, and when it had committed at the customer. */
  lastAppliedAt: z.string().nullable(),
  lastCommitAt: z.string().nullable().default(null),
  /** WAL the slot still holds for us, as last measured. */
  lagBytes: z.number().nullable().default(null),
  lagCheckedAt: z.string().nullable().default(null),
  /** The guardrail's window (D293): deletions applied since it started, against the live rows then. */
  guard: z.object({ windowStart: z.string(), liveAtStart: z.number(), removed: z.number() }).nullable().default(null),
  /** Why the consumer stopped or fell back to a full compare, last time it did. */
  lastFallback: z.string().nullable().default(null),
});
export type CdcState = z.infer<typeof cdcStateSchema>;

export function readCdcState(captureState: unknown): CdcState | null {
  const raw = (captureState as { cdc?: unknown } | null)?.cdc;
  const parsed = cdcStateSchema.safeParse(raw);
  return parsed.success ? parsed.data : null;
}

/** Replaces the `cdc` key, keeping whatever other modes stored beside it. */
export async function writeCdcState(client: pg.ClientBase, sourceId: string, state: CdcState): Promise<void> {
  await client.query(`UPDATE data_sources SET capture_state = COALESCE(capture_state, '{}'::jsonb) || jsonb_build_object('cdc', $2::jsonb) WHERE id = $1`, [
    sourceId,
    JSON.stringify(state),
  ]);
}

/** Changes a few fields of the stored state (read under the row's lock, so two writers cannot cross). */
export async function patchCdcState(client: pg.ClientBase, sourceId: string, patch: Partial<CdcState>): Promise<CdcState | null> {
  const { rows } = await client.query<{ capture_state: unknown }>(`SELECT capture_state FROM data_sources WHERE id = $1 FOR UPDATE`, [sourceId]);
  const current = readCdcState(rows[0]?.capture_state ?? null);
  if (!current) return null;
  const next = { ...current, ...patch };
  await writeCdcState(client, sourceId, next);
  return next;
}

/** A replication slot's name for a source: lowercase, digits and underscores, at most 63 characters. */
export function slotNameFor(sourceId: string): string {
  return `groundwork_${sourceId.toLowerCase().replace(/[^a-z0-9]/g, "")}`.slice(0, 63);
}
