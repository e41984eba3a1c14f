import type { DataSource } from "@/server/db/generated/client";
import type { Prisma, PrismaClient } from "@/server/db/types";
import { buildAlertMessage, type MessageKind, type SourceFacts } from "./alert-message";
import { alertStateOf, type AlertState } from "./alert-state";

/** Digest numbers (D217): after this many messages to one channel within the window, hold the rest. */
export const DIGEST_AFTER = 5;
export const DIGEST_WINDOW_MINUTES = 10;

export interface EvaluateOptions {
  baseUrl: string;
  now?: Date;
}

type Tx = Prisma.TransactionClient;

/**
 * Compares a source's alert state with the one last recorded and writes the deliveries the
 * change calls for (D212): one per channel per transition, a reminder when a rule's interval has
 * passed while the trouble lasts, nothing for a paused source. The state row is locked, so the
 * post-pass hook and the periodic tick never both announce one transition. Returns the ids of
 * the deliveries to queue (not the ones held for a digest).
 */
export async function evaluateSourceAlerts(db: PrismaClient, sourceId: string, options: EvaluateOptions): Promise<string[]> {
  const now = options.now ?? new Date();
  return db.$transaction(async (tx) => {
    const exists = await tx.dataSource.findUnique({ where: { id: sourceId }, select: { id: true } });
    if (!exists) return [];
    await tx.$executeRaw`INSERT INTO alert_source_states (data_source_id, state, since) VALUES (${sourceId}, 'ok', ${now}) ON CONFLICT DO NOTHING`;
    const [recorded] = await tx.$queryRaw<{ state: AlertState; since: Date }[]>`
      SELECT state, since FROM alert_source_states WHERE data_source_id = ${sourceId} FOR UPDATE`;
    // Read after the lock: the state the latest pass committed.
    const source = await tx.dataSource.findUnique({ where: { id: sourceId }, include: { organization: { select: { name: true } } } });
    if (!source || !recorded || source.pausedAt !== null) return [];

    const current = alertStateOf(source, now);
    const channels = await channelsFor(tx, source, now);
    const created: string[] = [];
    if (current !== recorded.state) {
      await tx.alertSourceState.update({ where: { dataSourceId: sourceId }, data: { state: current, since: now } });
      if (channels.length === 0) return [];
      const kind: MessageKind = current === "ok" ? "recovery" : "alert";
      const facts = await sourceFacts(tx, source, current, recorded.state);
      for (const channel of channels) created.push(...(await createDelivery(tx, channel.channelId, kind, facts, options.baseUrl, now)));
      return created;
    }
    if (current === "ok") return [];
    let facts: SourceFacts | undefined;
    for (const channel of channels) {
      if (channel.remindAfterMinutes === null) continue;
      const last = await tx.alertDelivery.findFirst({
        where: { channelId: channel.channelId, dataSourceId: sourceId, kind: { in: ["alert", "reminder"] }, createdAt: { gte: recorded.since } },
        orderBy: { createdAt: "desc" },
        select: { createdAt: true },
      });
      const reference = Math.max(recorded.since.getTime(), last?.createdAt.getTime() ?? 0);
      if (now.getTime() - reference < channel.remindAfterMinutes * 60_000) continue;
      facts ??= await sourceFacts(tx, source, current);
      created.push(...(await createDelivery(tx, channel.channelId, "reminder", facts, options.baseUrl, now)));
    }
    return created;
  });
}

/** The live channels whose unmuted rules (D500) cover the source, each once, with its shortest reminder. */
async function channelsFor(tx: Tx, source: DataSource, now: Date): Promise<{ channelId: string; remindAfterMinutes: number | null }[]> {
  const rules = await tx.alertRule.findMany({
    where: {
      organizationId: source.organizationId,
      AND: [{ OR: [{ dataSourceId: null }, { dataSourceId: source.id }] }, { OR: [{ mutedUntil: null }, { mutedUntil: { lte: now } }] }],
      channel: { deletedAt: null },
    },
    select: { channelId: true, remindAfterMinutes: true },
    orderBy: { createdAt: "asc" },
  });
  const byChannel = new Map<string, number | null>();
  for (const { channelId, remindAfterMinutes: remind } of rules) {
    const known = byChannel.has(channelId) ? byChannel.get(channelId)! : undefined;
    if (known === undefined || (remind !== null && (known === null || remind < known))) byChannel.set(channelId, remind);
  }
  return [...byChannel].map(([channelId, remindAfterMinutes]) => ({ channelId, remindAfterMinutes }));
}

async function sourceFacts(
  tx: Tx,
  source: DataSource & { organization: { name: string } },
  state: AlertState,
  previousState?: AlertState,
): Promise<SourceFacts> {
  const [lastOk] = await tx.$queryRaw<{ at: Date | null }[]>`
    SELECT max(finished_at) AS at FROM sync_runs WHERE data_source_id = ${source.id} AND status = 'ok'`;
  return {
    sourceId: source.id,
    sourceName: source.name,
    kind: source.kind,
    organizationId: source.organizationId,
    organizationName: source.organization.name,
    state,
    previousState,
    syncError: source.syncError,
    declinedDeletions: source.declinedDeletions,
    lastOkAt: lastOk?.at ?? (source.syncStatus === "ok" ? source.lastSyncedAt : null),
    syncIntervalSeconds: source.syncIntervalSeconds,
  };
}

/** One message row; held for the next digest when the channel already had its share in the window. */
async function createDelivery(tx: Tx, channelId: string, kind: MessageKind, facts: SourceFacts, baseUrl: string, now: Date): Promise<string[]> {
  const recent = await tx.alertDelivery.count({
    where: {
      channelId,
      kind: { in: ["alert", "reminder", "recovery"] },
      status: { in: ["pending", "sent", "failed"] },
      createdAt: { gt: new Date(now.getTime() - DIGEST_WINDOW_MINUTES * 60_000) },
    },
  });
  const held = recent >= DIGEST_AFTER;
  const message = buildAlertMessage(kind, facts, baseUrl);
  const delivery = await tx.alertDelivery.create({
    data: {
      channelId,
      organizationId: facts.organizationId,
      dataSourceId: facts.sourceId,
      kind,
      state: facts.state,
      subject: message.subject,
      body: message.body,
      status: held ? "held" : "pending",
      createdAt: now,
    },
    select: { id: true },
  });
  return held ? [] : [delivery.id];
}
