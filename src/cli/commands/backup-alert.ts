import { CLI_OPERATOR } from "@/server/modules/access/acting-principal";
import { createBackupRule, deleteBackupRule, listBackupRules, type BackupRuleView } from "@/server/modules/alerts/backup-alert";
import { requireOption, requirePositional, type CommandGroup } from "../command";

const json = (rule: BackupRuleView) => ({
  id: rule.id,
  channel: { id: rule.channelId, name: rule.channelName },
  state: rule.state,
  since: rule.since.toISOString(),
  created_at: rule.createdAt.toISOString(),
});
const line = (rule: BackupRuleView) => `${rule.id}  → ${rule.channelName} (${rule.channelId})  ${rule.state} since ${rule.since.toISOString()}`;

/** `alert backup-rule …`: the backup alert (D388), joined to the alert group in alert.ts. */
export const backupAlertCommands: CommandGroup = {
  "backup-rule create": {
    usage: "alert backup-rule create --channel CHANNEL_ID",
    summary: "Alert an instance channel when a backup fails or the last one is older than 36 h",
    options: { channel: { type: "string" } },
    async run(ctx, args) {
      const rule = await createBackupRule(ctx.db, CLI_OPERATOR, requireOption(args, "channel"));
      ctx.print(json(rule), `Created backup rule ${line(rule)}`);
    },
  },
  "backup-rule list": {
    usage: "alert backup-rule list",
    summary: "The backup alert rules and the state each last announced",
    async run(ctx) {
      const rules = await listBackupRules(ctx.db, CLI_OPERATOR);
      ctx.print(rules.map(json), rules.length ? rules.map(line).join("\n") : "No backup rules.");
    },
  },
  "backup-rule delete": {
    usage: "alert backup-rule delete RULE_ID",
    summary: "Delete a backup alert rule",
    async run(ctx, args) {
      const rule = await deleteBackupRule(ctx.db, CLI_OPERATOR, requirePositional(args, 0, "RULE_ID"));
      ctx.print(json(rule), `Deleted backup rule ${rule.id}`);
    },
  },
};
