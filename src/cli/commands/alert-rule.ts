import { CLI_OPERATOR } from "@/server/modules/access/acting-principal";
import { muteRule, updateRule } from "@/server/modules/alerts/rule-changes";
import type { RuleView } from "@/server/modules/alerts/rules";
import { CliUsageError, requireOption, requirePositional, wholeNumberOption, type CliArgs, type CommandGroup } from "../command";

export const ruleJson = (r: RuleView) => ({
  id: r.id,
  organization_id: r.organizationId,
  source_id: r.sourceId,
  source_name: r.sourceName,
  channel_id: r.channelId,
  channel_name: r.channelName,
  remind_after_minutes: r.remindAfterMinutes,
  muted_until: r.mutedUntil?.toISOString() ?? null,
  created_at: r.createdAt.toISOString(),
});
export const ruleLine = (r: RuleView) =>
  `${r.id}  ${r.sourceName ?? "every source"} → ${r.channelName}${r.remindAfterMinutes ? ` (remind every ${r.remindAfterMinutes} min)` : ""}${r.mutedUntil ? ` [muted until ${r.mutedUntil.toISOString()}]` : ""}`;

const UNITS: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000 };

/** `--for 90m|24h|7d` or `--until TIME` (ISO 8601 with an offset): when the mute ends. */
export function muteEnd(args: CliArgs, now = new Date()): Date {
  const span = args.values.for;
  const until = args.values.until;
  if ((typeof span === "string") === (typeof until === "string")) throw new CliUsageError("give exactly one of --for DURATION (90m, 24h, 7d) or --until TIME");
  if (typeof span === "string") {
    const match = /^(\d+)([mhd])$/.exec(span);
    if (!match) throw new CliUsageError("--for takes a whole number of minutes, hours or days: 90m, 24h, 7d");
    return new Date(now.getTime() + Number(match[1]) * UNITS[match[2]!]!);
  }
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(String(until))) {
    throw new CliUsageError("--until takes an ISO 8601 time with its offset, e.g. 2026-12-03T09:00:00Z");
  }
  return new Date(String(until));
}

/** `alert rule update|mute|unmute` (D500), joined to the alert group in alert.ts. */
export const alertRuleChangeCommands: CommandGroup = {
  "rule update": {
    usage: "alert rule update RULE_ID (--source SOURCE_ID | --all-sources) --channel CHANNEL_ID [--remind-after MINUTES]",
    summary: "Change which sources a rule covers, its channel and its reminder (no --remind-after: no reminders)",
    options: { source: { type: "string" }, "all-sources": { type: "boolean" }, channel: { type: "string" }, "remind-after": { type: "string" } },
    async run(ctx, args) {
      const source = args.values.source;
      if ((typeof source === "string") === (args.values["all-sources"] === true))
        throw new CliUsageError("give exactly one of --source SOURCE_ID or --all-sources");
      const rule = await updateRule(ctx.db, CLI_OPERATOR, requirePositional(args, 0, "RULE_ID"), {
        sourceId: typeof source === "string" ? source : null,
        channelId: requireOption(args, "channel"),
        remindAfterMinutes: wholeNumberOption(args, "remind-after", { min: 0 }) ?? null,
      });
      ctx.print(ruleJson(rule), `Updated rule ${ruleLine(rule)}`);
    },
  },
  "rule mute": {
    usage: "alert rule mute RULE_ID (--for 90m|24h|7d | --until TIME)",
    summary: "Send nothing for this rule until a time (at most 31 days ahead)",
    options: { for: { type: "string" }, until: { type: "string" } },
    async run(ctx, args) {
      const rule = await muteRule(ctx.db, CLI_OPERATOR, requirePositional(args, 0, "RULE_ID"), muteEnd(args));
      ctx.print(ruleJson(rule), `Muted rule ${ruleLine(rule)}`);
    },
  },
  "rule unmute": {
    usage: "alert rule unmute RULE_ID",
    summary: "Send this rule's alerts again",
    async run(ctx, args) {
      const rule = await muteRule(ctx.db, CLI_OPERATOR, requirePositional(args, 0, "RULE_ID"), null);
      ctx.print(ruleJson(rule), `Unmuted rule ${ruleLine(rule)}`);
    },
  },
};
