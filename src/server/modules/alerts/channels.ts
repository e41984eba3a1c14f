import { z } from "zod";
import type { AlertChannel } from "@/server/db/generated/client";
import type { Db, PrismaClient } from "@/server/db/types";
import { AppError } from "@/server/errors/app-error";
import { fromZod } from "@/server/errors/zod-issues";
import { requireReach, type ActingPrincipal } from "../access/acting-principal";
import { recordAuditEvent } from "../audit/record-audit-event";
import type { TargetPolicy } from "@/server/modules/outbound/target-policy";
import type { SecretBox } from "../data-sources/credentials/secret-box";
import { requireAllowedRecipients } from "./alert-recipients";
import { chatUrlHint, checkChatUrl } from "./chat-url";

/** Whose channels: one organization's, or the instance's (organizationId null, owners only). */
export function requireChannelScope(principal: ActingPrincipal, organizationId: string | null): void {
  if (organizationId === null) {
    if (principal.reach !== "instance") throw new AppError("forbidden", "Only instance owners manage instance channels.");
    return;
  }
  requireReach(principal, organizationId);
}

const createChannelInput = z.discriminatedUnion("kind", [
  z.object({
    kind: z.literal("email"),
    organizationId: z.string().min(1).nullable(),
    name: z.string().trim().min(1, "Give the channel a name").max(200),
    to: z.array(z.email("Each recipient must be an email address")).min(1, "Give at least one recipient").max(20),
  }),
  z.object({
    kind: z.literal("chat_url"),
    organizationId: z.string().min(1).nullable(),
    name: z.string().trim().min(1, "Give the channel a name").max(200),
    url: z.string().trim().min(1, "Give the chat URL").max(2000),
  }),
]);
export type CreateChannelInput = z.input<typeof createChannelInput>;

/** A channel as shown: the chat URL only as its host (write-only secret, D214). */
export interface ChannelView {
  id: string;
  organizationId: string | null;
  name: string;
  kind: "email" | "chat_url";
  emailTo: string[];
  urlHint: string | null;
  createdAt: Date;
}

function toChannelView(channel: AlertChannel): ChannelView {
  return {
    id: channel.id,
    organizationId: channel.organizationId,
    name: channel.name,
    kind: channel.kind,
    emailTo: channel.emailTo,
    urlHint: channel.urlHint,
    createdAt: channel.createdAt,
  };
}

/** The sealed chat URL is bound to its channel row. */
export function chatUrlContext(channelId: string): string {
  return `alert_channel:${channelId}`;
}

export interface ChannelDeps {
  secrets: SecretBox;
  policy: TargetPolicy;
}

export async function createChannel(db: PrismaClient, deps: ChannelDeps, principal: ActingPrincipal, raw: CreateChannelInput): Promise<ChannelView> {
  const parsed = createChannelInput.safeParse(raw);
  if (!parsed.success) throw fromZod(parsed.error, { subject: "channel", root: "input" });
  const input = parsed.data;
  requireChannelScope(principal, input.organizationId);
  if (input.organizationId !== null && !(await db.organization.findUnique({ where: { id: input.organizationId }, select: { id: true } }))) {
    throw new AppError("not_found", `No organization ${input.organizationId}.`);
  }
  if (input.kind === "email") await requireAllowedRecipients(db, principal, input.organizationId, input.to);
  let url: URL | null = null;
  if (input.kind === "chat_url") {
    const checked = await checkChatUrl(input.url, deps.policy);
    if (!checked.ok) throw new AppError("bad_request", `The chat URL was refused: ${checked.reason}.`);
    url = checked.value;
  }
  return db.$transaction(async (tx) => {
    const created = await tx.alertChannel.create({
      data: {
        organizationId: input.organizationId,
        name: input.name,
        kind: input.kind,
        emailTo: input.kind === "email" ? input.to : [],
        urlHint: url ? chatUrlHint(url) : null,
      },
    });
    const channel = url
      ? await tx.alertChannel.update({ where: { id: created.id }, data: { urlEncrypted: deps.secrets.seal(url.toString(), chatUrlContext(created.id)) } })
      : created;
    await recordAuditEvent(tx, {
      action: "alert_channel.created",
      actor: principal.actor,
      organizationId: channel.organizationId,
      target: { type: "alert_channel", id: channel.id },
      metadata: { kind: channel.kind, name: channel.name },
    });
    return toChannelView(channel);
  });
}

/** The channels of one scope (an organization, or the instance), oldest first. */
export async function listChannels(db: Db, principal: ActingPrincipal, organizationId: string | null): Promise<ChannelView[]> {
  requireChannelScope(principal, organizationId);
  const channels = await db.alertChannel.findMany({
    where: { organizationId, deletedAt: null },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
  });
  return channels.map(toChannelView);
}

/** A live channel the principal may manage, or not_found. */
export async function requireChannel(db: Db, principal: ActingPrincipal, channelId: string): Promise<AlertChannel> {
  const channel = await db.alertChannel.findFirst({ where: { id: channelId, deletedAt: null } });
  if (!channel) throw new AppError("not_found", `No alert channel ${channelId}.`);
  if (
    channel.organizationId === null
      ? principal.reach !== "instance"
      : principal.reach !== "instance" && principal.reach.organizationId !== channel.organizationId
  ) {
    throw new AppError("not_found", `No alert channel ${channelId}.`);
  }
  return channel;
}

/** Soft delete: its rules go, its deliveries stay listed. */
export async function deleteChannel(db: PrismaClient, principal: ActingPrincipal, channelId: string): Promise<ChannelView> {
  return db.$transaction(async (tx) => {
    const channel = await requireChannel(tx, principal, channelId);
    await tx.alertRule.deleteMany({ where: { channelId } });
    await tx.backupAlertRule.deleteMany({ where: { channelId } });
    const deleted = await tx.alertChannel.update({ where: { id: channelId }, data: { deletedAt: new Date(), urlEncrypted: null } });
    await recordAuditEvent(tx, {
      action: "alert_channel.deleted",
      actor: principal.actor,
      organizationId: channel.organizationId,
      target: { type: "alert_channel", id: channelId },
      metadata: { kind: channel.kind, name: channel.name },
    });
    return toChannelView(deleted);
  });
}
