import type { Db } from "@/server/db/types";
import type { ActingPrincipal } from "../access/acting-principal";
import { cursorValues, decodeCursor, encodeCursor } from "../pagination/cursor";
import { requireSource } from "@/server/modules/access/require-source";
import { DECLINED_SAMPLE_SIZE } from "./sync/held-back";

interface HeldBackRow {
  externalId: string;
  /** The row as last mirrored: it is still live until a pass applies the deletion. */
  data: unknown;
  displayOrder: number | null;
  updatedAt: Date;
}

export interface DeletionReview {
  /** Deletions the last completed pass declined (0: nothing to review). */
  declined: number;
  /** Set once someone approved them; the next completed pass applies them and clears it. */
  approvedAt: Date | null;
  /** The pass that declined them. */
  passId: string | null;
  passFinishedAt: Date | null;
  /** A sample of the held-back rows, in display order (at most `sampleSize`). */
  sample: HeldBackRow[];
}

/**
 * What the guardrail held back, before anyone approves it: the count and a sample of the rows.
 * The sample is the one the declining pass recorded (sync/held-back.ts), read from the last
 * completed pass, i.e. the pass that set declined_deletions; a failed pass since changes neither.
 */
export async function getDeletionReview(db: Db, principal: ActingPrincipal, sourceId: string, sampleSize = 20): Promise<DeletionReview> {
  const source = await requireSource(db, principal, sourceId);
  const empty = { declined: 0, approvedAt: null, passId: null, passFinishedAt: null, sample: [] };
  if (source.declinedDeletions === 0) return empty;
  const pass = await db.syncRun.findFirst({
    where: { dataSourceId: sourceId, status: { in: ["ok", "needs_attention"] } },
    orderBy: [{ startedAt: "desc" }, { id: "desc" }],
  });
  const ids = pass?.declinedSample.slice(0, Math.min(Math.max(sampleSize, 0), DECLINED_SAMPLE_SIZE)) ?? [];
  const rows =
    ids.length === 0
      ? []
      : await db.$queryRaw<HeldBackRow[]>`
    SELECT external_id AS "externalId", data, display_order AS "displayOrder", updated_at AS "updatedAt"
      FROM data_source_rows
     WHERE data_source_id = ${sourceId} AND deleted_at IS NULL AND external_id = ANY(${ids}::text[])
     ORDER BY COALESCE(display_order, 'Infinity'::float8), id`;
  return {
    declined: source.declinedDeletions,
    approvedAt: source.deletionsApprovedAt,
    passId: pass?.id ?? null,
    passFinishedAt: pass?.finishedAt ?? null,
    sample: rows,
  };
}

export interface HeldRowsPage {
  items: HeldBackRow[];
  nextCursor: string | null;
  /** Held rows matching the search (all of them without one). */
  matching: number;
}

/**
 * Every row the guardrail holds back (D465), by external id, keyset-paged, with a text search on
 * the key and the data. The keys are the ones the declining pass recorded (pass_held_deletions)
 * and the ones a change stream held (cdc_held_deletions, D327); a source declined before the
 * keys were recorded falls back to its pass's sample. Only rows still live are listed: those are
 * what an approval would tombstone.
 */
export async function listHeldRows(
  db: Db,
  principal: ActingPrincipal,
  sourceId: string,
  input: { search?: string; cursor?: string; limit?: number } = {},
): Promise<HeldRowsPage> {
  const source = await requireSource(db, principal, sourceId);
  const limit = Math.min(Math.max(input.limit ?? 25, 1), 1000);
  const search = input.search?.trim() || null;
  const binding = { endpoint: "sources.heldRows", sort: "external_id", filters: { sourceId, search } };
  const after = input.cursor ? decodeCursor(input.cursor, binding, cursorValues.text) : undefined;
  if (source.declinedDeletions === 0) return { items: [], nextCursor: null, matching: 0 };
  const [recorded] = await db.$queryRaw<{ n: number }[]>`
    SELECT ((SELECT count(*) FROM pass_held_deletions WHERE data_source_id = ${sourceId}) + (SELECT count(*) FROM cdc_held_deletions WHERE data_source_id = ${sourceId}))::int AS n`;
  let sample: string[] = [];
  if (!recorded?.n) {
    const pass = await db.syncRun.findFirst({
      where: { dataSourceId: sourceId, status: { in: ["ok", "needs_attention"] } },
      orderBy: [{ startedAt: "desc" }, { id: "desc" }],
    });
    sample = pass?.declinedSample ?? [];
  }
  const pattern = search === null ? null : `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  // NOTE: the keys are a set (a union); the join reads each row by its unique (source, key) index.
  const rows = await db.$queryRaw<(HeldBackRow & { matching: number })[]>`
    WITH held AS (
      SELECT external_id FROM pass_held_deletions WHERE data_source_id = ${sourceId}
      UNION SELECT external_id FROM cdc_held_deletions WHERE data_source_id = ${sourceId}
      UNION SELECT unnest(${sample}::text[])
    ), live AS (
      SELECT r.external_id AS "externalId", r.data, r.display_order AS "displayOrder", r.updated_at AS "updatedAt"
        FROM held h JOIN data_source_rows r ON r.data_source_id = ${sourceId} AND r.external_id = h.external_id AND r.deleted_at IS NULL
       WHERE ${pattern}::text IS NULL OR r.external_id ILIKE ${pattern} OR r.data::text ILIKE ${pattern}
    )
    SELECT l.*, (SELECT count(*) FROM live)::int AS matching FROM live l
     WHERE ${after?.[0] ?? null}::text IS NULL OR l."externalId" COLLATE "C" > ${after?.[0] ?? null}
     ORDER BY l."externalId" COLLATE "C" LIMIT ${limit + 1}`;
  const items = rows.slice(0, limit).map(({ matching: _matching, ...row }) => row);
  const last = items[items.length - 1];
  return {
    items,
    nextCursor: rows.length > limit && last ? encodeCursor(binding, [last.externalId, last.externalId]) : null,
    // An empty last page still knows the total only from a row: 0 is right for a first page.
    matching: rows[0]?.matching ?? 0,
  };
}
