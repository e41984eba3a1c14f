import { z } from "zod";
import type { Db, PrismaClient } from "@/server/db/types";
import { cursorValues, decodeCursor } from "../pagination/cursor";
import { DEFAULT_LIMIT, MAX_LIMIT, toPage, type Page } from "../pagination/page";
import { AppError } from "@/server/errors/app-error";
import type { ActingPrincipal } from "../access/acting-principal";
import { recordAuditEvent } from "../audit/record-audit-event";
import { buildTestMessage } from "./alert-message";
import { enqueueDeliveries } from "./alert-queue";
import { requireChannel, requireChannelScope } from "./channels";

export interface DeliveryView {
  id: string;
  channelId: string;
  channelName: string;
  channelKind: "email" | "chat_url";
  dataSourceId: string | null;
  /** alert | reminder | recovery | digest | test */
  kind: string;
  state: string | null;
  subject: string;
  /** pending | sent | failed | held | digested */
  status: string;
  attempts: number;
  /** The failure's class ("the mail relay refused the connection"). */
  lastError: string | null;
  /** What happened in detail (the relay's address and answer): owners and the CLI only (D376). */
  lastErrorDetail: string | null;
  createdAt: Date;
  sentAt: Date | null;
}

export const listDeliveriesInput = z.object({
  limit: z.number().int().min(1).max(MAX_LIMIT).default(DEFAULT_LIMIT),
  cursor: z.string().min(1).optional(),
});

/** The deliveries of one scope's channels (an organization's, or the instance's), newest first. */
export async function listDeliveries(
  db: Db,
  principal: ActingPrincipal,
  organizationId: string | null,
  input: z.input<typeof listDeliveriesInput> = {},
  options: { showDetail?: boolean } = {},
): Promise<Page<DeliveryView>> {
  requireChannelScope(principal, organizationId);
  const { limit, cursor } = listDeliveriesInput.parse(input);
  const binding = { endpoint: "alerts.deliveries", sort: "-created_at", filters: { organization: organizationId } };
  const after = cursor ? decodeCursor(cursor, binding, cursorValues.timestamp) : undefined;
  const rows = await db.alertDelivery.findMany({
    where: {
      channel: { organizationId },
      ...(after ? { OR: [{ createdAt: { lt: new Date(after[0]) } }, { createdAt: new Date(after[0]), id: { lt: after[1] } }] } : {}),
    },
    include: { channel: { select: { name: true, kind: true } } },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: limit + 1,
  });
  const page = toPage(rows, limit, binding, (row) => [row.createdAt.toISOString(), row.id]);
  return {
    ...page,
    items: page.items.map((row) => ({
      id: row.id,
      channelId: row.channelId,
      channelName: row.channel.name,
      channelKind: row.channel.kind,
      dataSourceId: row.dataSourceId,
      kind: row.kind,
      state: row.state,
      subject: row.subject,
      status: row.status,
      attempts: row.attempts,
      lastError: row.lastError,
      lastErrorDetail: options.showDetail ? row.lastErrorDetail : null,
      createdAt: row.createdAt,
      sentAt: row.sentAt,
    })),
  };
}

/**
 * Test sends a channel and a scope (an organization, or the instance) may queue (D375): each
 * test mails every recipient, so "Send test" is no way to send many messages.
 */
const TEST_SEND_LIMITS = {
  perChannel: { count: 3, windowMinutes: 10 },
  perOrganization: { count: 10, windowMinutes: 60 },
} as const;

async function requireTestBudget(tx: Db, channel: { id: string; organizationId: string | null }): Promise<void> {
  // NOTE: counted under a lock per scope, so concurrent clicks cannot all pass the count.
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`alert-test:${channel.organizationId ?? "instance"}`}))`;
  const now = Date.now();
  const { perChannel, perOrganization } = TEST_SEND_LIMITS;
  const since = (minutes: number) => new Date(now - minutes * 60_000);
  const [byChannel, byScope] = await Promise.all([
    tx.alertDelivery.findMany({
      where: { kind: "test", channelId: channel.id, createdAt: { gte: since(perChannel.windowMinutes) } },
      select: { createdAt: true },
      orderBy: { createdAt: "asc" },
    }),
    tx.alertDelivery.findMany({
      where: { kind: "test", channel: { organizationId: channel.organizationId }, createdAt: { gte: since(perOrganization.windowMinutes) } },
      select: { createdAt: true },
      orderBy: { createdAt: "asc" },
    }),
  ]);
  const refuse = (oldest: Date, minutes: number, message: string) => {
    const retryAfter = Math.max(1, Math.ceil((oldest.getTime() + minutes * 60_000 - now) / 1000));
    throw new AppError("rate_limited", message, { headers: { "Retry-After": String(retryAfter) } });
  };
  if (byChannel.length >= perChannel.count) {
    refuse(
      byChannel[0]!.createdAt,
      perChannel.windowMinutes,
      `This channel was tested ${perChannel.count} times in the last ${perChannel.windowMinutes} minutes; try again later.`,
    );
  }
  if (byScope.length >= perOrganization.count) {
    refuse(
      byScope[0]!.createdAt,
      perOrganization.windowMinutes,
      `${perOrganization.count} test messages were sent from this organization's channels in the last hour; try again later.`,
    );
  }
}

/** "Send test": a test message through the queue like any other; the delivery shows its fate. */
export async function sendTestMessage(
  db: PrismaClient,
  principal: ActingPrincipal,
  channelId: string,
  baseUrl: string,
): Promise<{ deliveryId: string; queued: boolean }> {
  const deliveryId = await db.$transaction(async (tx) => {
    const channel = await requireChannel(tx, principal, channelId);
    await requireTestBudget(tx, channel);
    const message = buildTestMessage(channel.name, baseUrl);
    const delivery = await tx.alertDelivery.create({
      data: { channelId, organizationId: channel.organizationId, kind: "test", subject: message.subject, body: message.body },
      select: { id: true },
    });
    await recordAuditEvent(tx, {
      action: "alert_channel.test_sent",
      actor: principal.actor,
      organizationId: channel.organizationId,
      target: { type: "alert_channel", id: channelId },
      metadata: { delivery_id: delivery.id },
    });
    return delivery.id;
  });
  return { deliveryId, queued: await enqueueDeliveries(db, [deliveryId]) };
}
