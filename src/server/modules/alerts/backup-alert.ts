import type { Db, PrismaClient } from "@/server/db/types";
import { AppError } from "@/server/errors/app-error";
import type { ActingPrincipal } from "../access/acting-principal";
import { recordAuditEvent } from "../audit/record-audit-event";
import { backupStatus } from "../backup/backup-status";
import { requireChannel } from "./channels";

/** A backup older than this is an alert (a daily job that missed one run and a half). */
const BACKUP_MAX_AGE_HOURS = 36;

type BackupAlertState = "ok" | "failed" | "stale";

export interface BackupRuleView {
  id: string;
  channelId: string;
  channelName: string;
  state: BackupAlertState;
  since: Date;
  createdAt: Date;
}

type RuleRow = { id: string; channelId: string; state: string; since: Date; createdAt: Date; channel: { name: string } };
const toView = (rule: RuleRow): BackupRuleView => ({ ...rule, state: rule.state as BackupAlertState, channelName: rule.channel.name });

/**
 * The backup alert (D388): failed when the last run failed; stale when the last success (or,
 * before any, the rule itself) is older than 36 h; else ok.
 */
function backupAlertStateOf(status: Awaited<ReturnType<typeof backupStatus>>, ruleCreatedAt: Date, now: Date): BackupAlertState {
  if (status.lastRun?.action === "backup.failed") return "failed";
  const reference = status.lastSuccessAt ?? ruleCreatedAt;
  return now.getTime() - reference.getTime() > BACKUP_MAX_AGE_HOURS * 3_600_000 ? "stale" : "ok";
}

function requireOwner(principal: ActingPrincipal): void {
  if (principal.reach !== "instance") throw new AppError("forbidden", "Only instance owners manage backup alerts.");
}

export async function createBackupRule(db: PrismaClient, principal: ActingPrincipal, channelId: string): Promise<BackupRuleView> {
  requireOwner(principal);
  return db.$transaction(async (tx) => {
    const channel = await requireChannel(tx, principal, channelId);
    if (channel.organizationId !== null) throw new AppError("bad_request", "A backup alert goes to an instance channel (alert channel create --instance).");
    const rule = await tx.backupAlertRule.create({ data: { channelId }, include: { channel: { select: { name: true } } } });
    await recordAuditEvent(tx, {
      action: "backup_alert_rule.created",
      actor: principal.actor,
      target: { type: "backup_alert_rule", id: rule.id },
      metadata: { channel_id: channelId },
    });
    return toView(rule);
  });
}

export async function listBackupRules(db: Db, principal: ActingPrincipal): Promise<BackupRuleView[]> {
  requireOwner(principal);
  const rules = await db.backupAlertRule.findMany({ include: { channel: { select: { name: true } } }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
  return rules.map(toView);
}

export async function deleteBackupRule(db: PrismaClient, principal: ActingPrincipal, ruleId: string): Promise<BackupRuleView> {
  requireOwner(principal);
  return db.$transaction(async (tx) => {
    const rule = await tx.backupAlertRule.findUnique({ where: { id: ruleId }, include: { channel: { select: { name: true } } } });
    if (!rule) throw new AppError("not_found", `No backup alert rule ${ruleId}.`);
    await tx.backupAlertRule.delete({ where: { id: ruleId } });
    await recordAuditEvent(tx, {
      action: "backup_alert_rule.deleted",
      actor: principal.actor,
      target: { type: "backup_alert_rule", id: ruleId },
      metadata: { channel_id: rule.channelId },
    });
    return toView(rule);
  });
}

const MESSAGES: Record<BackupAlertState, { subject: string; body: string }> = {
  failed: {
    subject: "[Groundwork] Backup failed",
    body: "The last scheduled backup failed; the audit log (action backup.failed) has the reason. Check GROUNDWORK_BACKUP_DIR's disk and the worker's log.",
  },
  stale: {
    subject: `[Groundwork] No backup for more than ${BACKUP_MAX_AGE_HOURS} h`,
    body: `No backup has succeeded for more than ${BACKUP_MAX_AGE_HOURS} hours. Is the worker running with GROUNDWORK_BACKUP_DIR set?`,
  },
  ok: { subject: "[Groundwork] Backups recovered", body: "A backup succeeded again." },
};

/**
 * Run by the alert tick: each rule whose state changed writes one delivery (an alert, or a
 * recovery) to its channel, under a row lock so two ticks never both announce one change.
 * Returns the deliveries to queue.
 */
export async function evaluateBackupAlerts(db: PrismaClient, now: Date): Promise<string[]> {
  const rules = await db.backupAlertRule.findMany({ select: { id: true } });
  if (rules.length === 0) return [];
  const status = await backupStatus(db);
  const created: string[] = [];
  for (const { id } of rules) {
    const delivery = await db.$transaction(async (tx) => {
      const [rule] = await tx.$queryRaw<{ state: string; created_at: Date; channel_id: string }[]>`
        SELECT state, created_at, channel_id FROM backup_alert_rules WHERE id = ${id} FOR UPDATE`;
      if (!rule) return null;
      const current = backupAlertStateOf(status, rule.created_at, now);
      if (current === rule.state) return null;
      await tx.backupAlertRule.update({ where: { id }, data: { state: current, since: now } });
      const message = MESSAGES[current];
      const row = await tx.alertDelivery.create({
        data: {
          channelId: rule.channel_id,
          kind: current === "ok" ? "recovery" : "alert",
          state: current,
          subject: message.subject,
          body: message.body,
          status: "pending",
          createdAt: now,
        },
        select: { id: true },
      });
      return row.id;
    });
    if (delivery) created.push(delivery);
  }
  return created;
}
