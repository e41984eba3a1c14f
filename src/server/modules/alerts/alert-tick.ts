import type { PrismaClient } from "@/server/db/types";
import { buildDigestMessage } from "./alert-message";
import { enqueueDeliveries } from "./alert-queue";
import { evaluateBackupAlerts } from "./backup-alert";
import { STALE_AFTER_INTERVALS } from "../data-sources/source-status";
import { DIGEST_WINDOW_MINUTES, evaluateSourceAlerts } from "./evaluate-source";

export interface TickSummary {
  evaluated: number;
  queued: number;
  digests: number;
}

/**
 * The periodic alert check (worker cron, every minute): staleness happens without a pass, and
 * reminders fall due with time. It looks only at sources that are, or were last seen, in
 * trouble; then sends due digests; then queues deliveries that never got a job (written while no
 * worker had installed the queue).
 */
export async function runAlertTick(db: PrismaClient, options: { baseUrl: string; now?: Date }): Promise<TickSummary> {
  const now = options.now ?? new Date();
  const candidates = await db.$queryRaw<{ id: string }[]>`
    SELECT s.id FROM data_sources s LEFT JOIN alert_source_states a ON a.data_source_id = s.id
     WHERE s.paused_at IS NULL
       AND (a.state <> 'ok'
            OR s.sync_status IN ('error', 'needs_attention')
            OR (s.kind <> 'csv' AND s.sync_interval_seconds IS NOT NULL
                AND coalesce(s.last_synced_at, s.created_at) + make_interval(secs => ${STALE_AFTER_INTERVALS} * s.sync_interval_seconds) < ${now}::timestamptz))`;
  const toQueue: string[] = [];
  for (const { id } of candidates) toQueue.push(...(await evaluateSourceAlerts(db, id, { baseUrl: options.baseUrl, now })));
  toQueue.push(...(await evaluateBackupAlerts(db, now)));
  const digests = await flushDigests(db, now);
  toQueue.push(...digests);
  const stranded = await db.alertDelivery.findMany({
    where: { status: "pending", attempts: 0, createdAt: { lt: new Date(now.getTime() - 60_000) } },
    select: { id: true },
    take: 500,
  });
  await enqueueDeliveries(db, [...toQueue, ...stranded.map((d) => d.id)]);
  return { evaluated: candidates.length, queued: toQueue.length, digests: digests.length };
}

/**
 * One digest per channel that holds messages and had no digest within the window: the held
 * messages become lines of it (D217).
 */
async function flushDigests(db: PrismaClient, now: Date): Promise<string[]> {
  const channels = await db.alertDelivery.groupBy({ by: ["channelId"], where: { status: "held" } });
  const created: string[] = [];
  for (const { channelId } of channels) {
    const id = await db.$transaction(async (tx) => {
      await tx.$queryRaw`SELECT id FROM alert_channels WHERE id = ${channelId} FOR UPDATE`;
      const recentDigest = await tx.alertDelivery.findFirst({
        where: { channelId, kind: "digest", createdAt: { gt: new Date(now.getTime() - DIGEST_WINDOW_MINUTES * 60_000) } },
        select: { id: true },
      });
      if (recentDigest) return null;
      const held = await tx.alertDelivery.findMany({ where: { channelId, status: "held" }, orderBy: { createdAt: "asc" } });
      if (held.length === 0) return null;
      const message = buildDigestMessage(
        held.map((d) => ({
          subject: d.subject,
          sourceLine: `${d.subject.replace(/^\[Groundwork\] /, "")} ${
            d.body
              .split("\n")
              .at(-1)
              ?.replace(/^Source page: /, "— ") ?? ""
          }`,
        })),
        DIGEST_WINDOW_MINUTES,
      );
      const digest = await tx.alertDelivery.create({
        data: { channelId, kind: "digest", subject: message.subject, body: message.body, status: "pending", createdAt: now },
        select: { id: true },
      });
      await tx.alertDelivery.updateMany({ where: { id: { in: held.map((d) => d.id) } }, data: { status: "digested", digestId: digest.id } });
      return digest.id;
    });
    if (id) created.push(id);
  }
  return created;
}
