import { z } from "zod";
import type { Db, PrismaClient } from "@/server/db/types";
import { AppError } from "@/server/errors/app-error";
import { requireReach, type ActingPrincipal } from "../access/acting-principal";
import { recordAuditEvent } from "../audit/record-audit-event";
import { requireChannel } from "./channels";

export const createRuleInput = z.object({
  organizationId: z.string().min(1),
  /** null: every source of the organization. */
  sourceId: z.string().min(1).nullable(),
  channelId: z.string().min(1),
  /** Remind every this many minutes while the trouble lasts; null: no reminders. */
  remindAfterMinutes: z.number().int().min(5, "Remind after at least 5 minutes").max(7 * 24 * 60).nullable(),
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
  createdAt: Date;
}

const ruleInclude = { dataSource: { select: { name: true } }, channel: { select: { name: true, kind: true } } } as const;

type RuleRow = {
  id: string;
  organizationId: string;
  dataSourceId: string | null;
  channelId: string;
  remindAfterMinutes: number | null;
  createdAt: Date;
  dataSource: { name: string } | null;
  channel: { name: string; kind: "email" | "chat_url" };
};

function toRuleView(rule: RuleRow): RuleView {
  return {
    id: rule.id,
    organizationId: rule.organizationId,
    sourceId: rule.dataSourceId,
    sourceName: rule.dataSource?.name ?? null,
    channelId: rule.channelId,
    channelName: rule.channel.name,
    channelKind: rule.channel.kind,
    remindAfterMinutes: rule.remindAfterMinutes,
    createdAt: rule.createdAt,
  };
}

/**
 * A rule sends an organization's alerts (one source, or all of them) to a channel of that
 * organization, or, when an instance owner sets it, to an instance channel (D211).
 */
export async function createRule(db: PrismaClient, principal: ActingPrincipal, raw: CreateRuleInput): Promise<RuleView> {
  const parsed = createRuleInput.safeParse(raw);
  if (!parsed.success) throw new AppError("bad_request", parsed.error.issues[0]?.message ?? "Invalid rule.");
  const input = parsed.data;
  requireReach(principal, input.organizationId);
  return db.$transaction(async (tx) => {
    const organization = await tx.organization.findUnique({ where: { id: input.organizationId }, select: { id: true } });
    if (!organization) throw new AppError("not_found", `No organization ${input.organizationId}.`);
    const channel = await requireChannel(tx, principal, input.channelId);
    if (channel.organizationId !== null && channel.organizationId !== input.organizationId) {
      throw new AppError("bad_request", "That channel belongs to another organization.");
    }
    if (input.sourceId !== null) {
      const source = await tx.dataSource.findFirst({ where: { id: input.sourceId, organizationId: input.organizationId }, select: { id: true } });
      if (!source) throw new AppError("not_found", `No data source ${input.sourceId}.`);
    }
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

export async function listRules(db: Db, principal: ActingPrincipal, organizationId: string): Promise<RuleView[]> {
  requireReach(principal, organizationId);
  const rules = await db.alertRule.findMany({ where: { organizationId }, include: ruleInclude, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
  return rules.map(toRuleView);
}

export async function deleteRule(db: PrismaClient, principal: ActingPrincipal, ruleId: string): Promise<RuleView> {
  return db.$transaction(async (tx) => {
    const rule = await tx.alertRule.findUnique({ where: { id: ruleId }, include: ruleInclude });
    if (!rule || (principal.reach !== "instance" && principal.reach.organizationId !== rule.organizationId)) throw new AppError("not_found", `No alert rule ${ruleId}.`);
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
