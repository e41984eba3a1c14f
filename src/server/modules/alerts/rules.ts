import { z } from "zod";
import type { Db, PrismaClient } from "@/server/db/types";
import { AppError } from "@/server/errors/app-error";
import { fromZod } from "@/server/errors/zod-issues";
import { requireReach, type ActingPrincipal } from "../access/acting-principal";
import { recordAuditEvent } from "../audit/record-audit-event";
import { requireChannel } from "./channels";

export const createRuleInput = z.object({
  organizationId: z.string().min(1),
  /** null: every source of the organization. */
  sourceId: z.string().min(1).nullable(),
  channelId: z.string().min(1),
  /** Remind every this many minutes while the trouble lasts; null: no reminders. */
  remindAfterMinutes: z
    .number()
    .int()
    .min(5, "Remind after at least 5 minutes")
    .max(7 * 24 * 60)
    .nullable(),
});
export type CreateRuleInput = z.input<typeof createRuleInput>;

export interface RuleView {
  id: string;
  organizationId: string;
  sourceId: string | null;
  sourceName: string | null;
  channelId: string;
  channelName: string;
  channelKind: "email" | "chat_url";
  remindAfterMinutes: number | null;
  /** Sends nothing until then (D500); null when not muted (a past time reads as null). */
  mutedUntil: Date | null;
  createdAt: Date;
}

export const ruleInclude = { dataSource: { select: { name: true } }, channel: { select: { name: true, kind: true } } } as const;

type RuleRow = {
  id: string;
  organizationId: string;
  dataSourceId: string | null;
  channelId: string;
  remindAfterMinutes: number | null;
  mutedUntil: Date | null;
  createdAt: Date;
  dataSource: { name: string } | null;
  channel: { name: string; kind: "email" | "chat_url" };
};

export function toRuleView(rule: RuleRow, now = new Date()): RuleView {
  return {
    id: rule.id,
    organizationId: rule.organizationId,
    sourceId: rule.dataSourceId,
    sourceName: rule.dataSource?.name ?? null,
    channelId: rule.channelId,
    channelName: rule.channel.name,
    channelKind: rule.channel.kind,
    remindAfterMinutes: rule.remindAfterMinutes,
    mutedUntil: rule.mutedUntil && rule.mutedUntil > now ? rule.mutedUntil : null,
    createdAt: rule.createdAt,
  };
}

/**
 * A rule sends an organization's alerts (one source, or all of them) to a channel of that
 * organization, or, when an instance owner sets it, to an instance channel (D211).
 */
export async function createRule(db: PrismaClient, principal: ActingPrincipal, raw: CreateRuleInput): Promise<RuleView> {
  const parsed = createRuleInput.safeParse(raw);
  if (!parsed.success) throw fromZod(parsed.error, { subject: "rule", root: "input" });
  const input = parsed.data;
  requireReach(principal, input.organizationId);
  return db.$transaction(async (tx) => {
    const organization = await tx.organization.findUnique({ where: { id: input.organizationId }, select: { id: true } });
    if (!organization) throw new AppError("not_found", `No organization ${input.organizationId}.`);
    await requireRuleTargets(tx, principal, input.organizationId, input);
    const rule = await tx.alertRule.create({
      data: { organizationId: input.organizationId, dataSourceId: input.sourceId, channelId: input.channelId, remindAfterMinutes: input.remindAfterMinutes },
      include: ruleInclude,
    });
    await recordAuditEvent(tx, {
      action: "alert_rule.created",
      actor: principal.actor,
      organizationId: input.organizationId,
      target: { type: "alert_rule", id: rule.id },
      metadata: { channel_id: input.channelId, source_id: input.sourceId, remind_after_minutes: input.remindAfterMinutes },
    });
    return toRuleView(rule);
  });
}

/** The channel (this organization's, or the instance's) and the source (this organization's) a rule may name. */
export async function requireRuleTargets(
  tx: Db,
  principal: ActingPrincipal,
  organizationId: string,
  targets: { channelId: string; sourceId: string | null },
): Promise<void> {
  const channel = await requireChannel(tx, principal, targets.channelId);
  if (channel.organizationId !== null && channel.organizationId !== organizationId) {
    throw new AppError("bad_request", "That channel belongs to another organization.");
  }
  if (targets.sourceId !== null) {
    const source = await tx.dataSource.findFirst({ where: { id: targets.sourceId, organizationId }, select: { id: true } });
    if (!source) throw new AppError("not_found", `No data source ${targets.sourceId}.`);
  }
}

/** The organization a rule belongs to, or null when there is no such rule (for the role check before the change). */
export async function ruleOrganization(db: Db, ruleId: string): Promise<string | null> {
  const rule = await db.alertRule.findUnique({ where: { id: ruleId }, select: { organizationId: true } });
  return rule?.organizationId ?? null;
}

export async function listRules(db: Db, principal: ActingPrincipal, organizationId: string): Promise<RuleView[]> {
  requireReach(principal, organizationId);
  const rules = await db.alertRule.findMany({ where: { organizationId }, include: ruleInclude, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
  return rules.map((rule) => toRuleView(rule));
}

export async function deleteRule(db: PrismaClient, principal: ActingPrincipal, ruleId: string): Promise<RuleView> {
  return db.$transaction(async (tx) => {
    const rule = await tx.alertRule.findUnique({ where: { id: ruleId }, include: ruleInclude });
    if (!rule || (principal.reach !== "instance" && principal.reach.organizationId !== rule.organizationId))
      throw new AppError("not_found", `No alert rule ${ruleId}.`);
    await tx.alertRule.delete({ where: { id: ruleId } });
    await recordAuditEvent(tx, {
      action: "alert_rule.deleted",
      actor: principal.actor,
      organizationId: rule.organizationId,
      target: { type: "alert_rule", id: ruleId },
      metadata: { channel_id: rule.channelId, source_id: rule.dataSourceId },
    });
    return toRuleView(rule);
  });
}
