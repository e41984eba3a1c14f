import { z } from "zod";
import type { Db, PrismaClient } from "@/server/db/types";
import { AppError } from "@/server/errors/app-error";
import { fromZod } from "@/server/errors/zod-issues";
import type { ActingPrincipal } from "../access/acting-principal";
import { recordAuditEvent } from "../audit/record-audit-event";
import { createRuleInput, requireRuleTargets, ruleInclude, toRuleView, type RuleView } from "./rules";

const updateRuleInput = createRuleInput.omit({ organizationId: true });
export type UpdateRuleInput = z.input<typeof updateRuleInput>;

/** The longest mute: past a month a rule that should not send belongs deleted, not muted. */
const MAX_MUTE_MS = 31 * 24 * 3_600_000;

async function ruleInReach(tx: Db, principal: ActingPrincipal, ruleId: string) {
  const rule = await tx.alertRule.findUnique({ where: { id: ruleId }, include: ruleInclude });
  // Another tenant's rule reads as absent, as everywhere.
  if (!rule || (principal.reach !== "instance" && principal.reach.organizationId !== rule.organizationId))
    throw new AppError("not_found", `No alert rule ${ruleId}.`);
  return rule;
}

const described = (rule: RuleView) => ({ source_id: rule.sourceId, channel_id: rule.channelId, remind_after_minutes: rule.remindAfterMinutes });

/**
 * Changes which sources a rule covers, its channel and its reminder (D500). The rule keeps its id
 * and its mute; the audit event carries the rule before and after.
 */
export async function updateRule(db: PrismaClient, principal: ActingPrincipal, ruleId: string, raw: UpdateRuleInput): Promise<RuleView> {
  const parsed = updateRuleInput.safeParse(raw);
  if (!parsed.success) throw fromZod(parsed.error, { subject: "rule", root: "input" });
  const input = parsed.data;
  return db.$transaction(async (tx) => {
    const before = toRuleView(await ruleInReach(tx, principal, ruleId));
    await requireRuleTargets(tx, principal, before.organizationId, input);
    const after = toRuleView(
      await tx.alertRule.update({
        where: { id: ruleId },
        data: { dataSourceId: input.sourceId, channelId: input.channelId, remindAfterMinutes: input.remindAfterMinutes },
        include: ruleInclude,
      }),
    );
    await recordAuditEvent(tx, {
      action: "alert_rule.updated",
      actor: principal.actor,
      organizationId: before.organizationId,
      target: { type: "alert_rule", id: ruleId },
      metadata: { before: described(before), after: described(after) },
    });
    return after;
  });
}

/**
 * Mutes a rule until a time (at most a month ahead), or unmutes it (`until` null). A muted rule
 * sends nothing — no alert, reminder or recovery — and what happens meanwhile is not sent later:
 * the source page and the alerts pill still show the trouble (D500).
 */
export async function muteRule(db: PrismaClient, principal: ActingPrincipal, ruleId: string, until: Date | null, now = new Date()): Promise<RuleView> {
  if (until !== null) {
    if (Number.isNaN(until.getTime()) || until.getTime() <= now.getTime()) throw new AppError("bad_request", "A mute must end in the future.");
    if (until.getTime() - now.getTime() > MAX_MUTE_MS) throw new AppError("bad_request", "A mute lasts at most 31 days; delete the rule to stop it for good.");
  }
  return db.$transaction(async (tx) => {
    const before = await ruleInReach(tx, principal, ruleId);
    const rule = toRuleView(await tx.alertRule.update({ where: { id: ruleId }, data: { mutedUntil: until }, include: ruleInclude }), now);
    await recordAuditEvent(tx, {
      action: until === null ? "alert_rule.unmuted" : "alert_rule.muted",
      actor: principal.actor,
      organizationId: before.organizationId,
      target: { type: "alert_rule", id: ruleId },
      metadata: { before: { muted_until: toRuleView(before, now).mutedUntil?.toISOString() ?? null }, after: { muted_until: until?.toISOString() ?? null } },
    });
    return rule;
  });
}
