import { CLI_OPERATOR } from "@/server/modules/access/acting-principal";
import { LINK_BASE } from "@/server/modules/alerts/alert-message";
import { createChannel, deleteChannel, listChannels, type ChannelView } from "@/server/modules/alerts/channels";
import { listDeliveries } from "@/server/modules/alerts/deliveries";
import { createRule, deleteRule, listRules } from "@/server/modules/alerts/rules";
import { operatorTargetPolicy } from "@/server/modules/outbound/target-policy";
import { loadEncryptionKey } from "@/server/modules/data-sources/credentials/encryption-key";
import { createSecretBox } from "@/server/modules/data-sources/credentials/secret-box";
import { sendTestMessage } from "@/server/modules/alerts/deliveries";
import { MAX_LIMIT } from "@/server/modules/pagination/page";
import { alertRuleChangeCommands, ruleJson, ruleLine } from "./alert-rule";
import { backupAlertCommands } from "./backup-alert";
import { CliUsageError, requireOption, requirePositional, requireSecretOption, wholeNumberOption, type CliArgs, type CommandGroup } from "../command";

// NOTE: the shell operator has the instance owner's rights: any organization, instance channels.

/** Exactly one of --org ORG_ID or --instance: null means the instance's channels. */
function scopeOf(args: CliArgs): string | null {
  const org = args.values.org;
  const instance = args.values.instance === true;
  if ((typeof org === "string") === instance) throw new CliUsageError("give exactly one of --org ORG_ID or --instance");
  return instance ? null : (org as string);
}

const scopeOptions = { org: { type: "string" }, instance: { type: "boolean" } } as const;

const channelJson = (c: ChannelView) => ({
  id: c.id,
  organization_id: c.organizationId,
  name: c.name,
  kind: c.kind,
  email_to: c.emailTo,
  url_hint: c.urlHint,
  created_at: c.createdAt.toISOString(),
});
const channelLine = (c: ChannelView) => `${c.id}  ${c.kind.padEnd(8)} ${c.name}  → ${c.kind === "email" ? c.emailTo.join(", ") : c.urlHint}`;

export const alertCommands: CommandGroup = {
  "channel create": {
    usage: "alert channel create (--org ORG_ID | --instance) --name N (--email a@x,b@y | --chat-url URL|-)",
    summary: "Add an alert channel: email via the SMTP relay, or a chat URL (read from stdin with -)",
    options: { ...scopeOptions, name: { type: "string" }, email: { type: "string" }, "chat-url": { type: "string" } },
    async run(ctx, args) {
      const organizationId = scopeOf(args);
      const name = requireOption(args, "name");
      const deps = { secrets: createSecretBox(await loadEncryptionKey(ctx.dataDir)), policy: operatorTargetPolicy() };
      if ((typeof args.values.email === "string") === (typeof args.values["chat-url"] === "string"))
        throw new CliUsageError("give exactly one of --email or --chat-url");
      const channel =
        typeof args.values.email === "string"
          ? await createChannel(ctx.db, deps, CLI_OPERATOR, {
              kind: "email",
              organizationId,
              name,
              to: args.values.email
                .split(",")
                .map((s) => s.trim())
                .filter(Boolean),
            })
          : await createChannel(ctx.db, deps, CLI_OPERATOR, {
              kind: "chat_url",
              organizationId,
              name,
              url: await requireSecretOption(args, "chat-url", ctx.io.stdin),
            });
      ctx.print(channelJson(channel), `Created channel ${channelLine(channel)}`);
    },
  },
  "channel list": {
    usage: "alert channel list (--org ORG_ID | --instance)",
    summary: "List alert channels (chat URLs show only their host)",
    options: scopeOptions,
    async run(ctx, args) {
      const channels = await listChannels(ctx.db, CLI_OPERATOR, scopeOf(args));
      ctx.print(channels.map(channelJson), channels.length ? channels.map(channelLine).join("\n") : "No channels.");
    },
  },
  "channel test": {
    usage: "alert channel test CHANNEL_ID",
    summary: "Queue a test message; see it with `alert deliveries`",
    async run(ctx, args) {
      const sent = await sendTestMessage(ctx.db, CLI_OPERATOR, requirePositional(args, 0, "CHANNEL_ID"), LINK_BASE);
      ctx.print(
        { delivery_id: sent.deliveryId, queued: sent.queued },
        sent.queued
          ? `Test message queued (delivery ${sent.deliveryId}).`
          : `Test message recorded (delivery ${sent.deliveryId}); it goes out once a worker runs.`,
      );
    },
  },
  "channel delete": {
    usage: "alert channel delete CHANNEL_ID",
    summary: "Delete a channel and its rules (its deliveries stay listed)",
    async run(ctx, args) {
      const channel = await deleteChannel(ctx.db, CLI_OPERATOR, requirePositional(args, 0, "CHANNEL_ID"));
      ctx.print(channelJson(channel), `Deleted channel ${channel.id}`);
    },
  },
  "rule create": {
    usage: "alert rule create --org ORG_ID (--source SOURCE_ID | --all-sources) --channel CHANNEL_ID [--remind-after MINUTES]",
    summary: "Alert a channel when a source (or every source) needs attention, errs, goes stale or recovers",
    options: {
      org: { type: "string" },
      source: { type: "string" },
      "all-sources": { type: "boolean" },
      channel: { type: "string" },
      "remind-after": { type: "string" },
    },
    async run(ctx, args) {
      const source = args.values.source;
      if ((typeof source === "string") === (args.values["all-sources"] === true))
        throw new CliUsageError("give exactly one of --source SOURCE_ID or --all-sources");
      const remind = wholeNumberOption(args, "remind-after", { min: 0 }) ?? null;
      const rule = await createRule(ctx.db, CLI_OPERATOR, {
        organizationId: requireOption(args, "org"),
        sourceId: typeof source === "string" ? source : null,
        channelId: requireOption(args, "channel"),
        remindAfterMinutes: remind,
      });
      ctx.print(ruleJson(rule), `Created rule ${ruleLine(rule)}`);
    },
  },
  "rule list": {
    usage: "alert rule list --org ORG_ID",
    summary: "List an organization's alert rules",
    options: { org: { type: "string" } },
    async run(ctx, args) {
      const rules = await listRules(ctx.db, CLI_OPERATOR, requireOption(args, "org"));
      ctx.print(rules.map(ruleJson), rules.length ? rules.map(ruleLine).join("\n") : "No rules.");
    },
  },
  "rule delete": {
    usage: "alert rule delete RULE_ID",
    summary: "Delete an alert rule",
    async run(ctx, args) {
      const rule = await deleteRule(ctx.db, CLI_OPERATOR, requirePositional(args, 0, "RULE_ID"));
      ctx.print(ruleJson(rule), `Deleted rule ${rule.id}`);
    },
  },
  deliveries: {
    usage: "alert deliveries (--org ORG_ID | --instance) [--limit N] [--cursor C]",
    summary: "Messages sent, pending or failed (with the reason), newest first",
    options: { ...scopeOptions, limit: { type: "string" }, cursor: { type: "string" } },
    async run(ctx, args) {
      const limit = wholeNumberOption(args, "limit", { min: 1, max: MAX_LIMIT });
      const page = await listDeliveries(
        ctx.db,
        CLI_OPERATOR,
        scopeOf(args),
        { limit, cursor: typeof args.values.cursor === "string" ? args.values.cursor : undefined },
        { showDetail: true },
      );
      const items = page.items.map((d) => ({
        id: d.id,
        channel_id: d.channelId,
        channel_name: d.channelName,
        data_source_id: d.dataSourceId,
        kind: d.kind,
        state: d.state,
        subject: d.subject,
        status: d.status,
        attempts: d.attempts,
        last_error: d.lastError,
        last_error_detail: d.lastErrorDetail,
        created_at: d.createdAt.toISOString(),
        sent_at: d.sentAt?.toISOString() ?? null,
      }));
      const human = items.map(
        (d) =>
          `${d.created_at}  ${d.status.padEnd(9)} ${d.kind.padEnd(8)} ${d.channel_name}: ${d.subject}${d.last_error ? `\n    reason: ${d.last_error}${d.last_error_detail && d.last_error_detail !== d.last_error ? ` (${d.last_error_detail})` : ""}` : ""}`,
      );
      if (page.meta.next_cursor) human.push(`more: --cursor ${page.meta.next_cursor}`);
      ctx.print({ items, next_cursor: page.meta.next_cursor }, human.length ? human.join("\n") : "No deliveries.");
    },
  },
  ...backupAlertCommands,
  ...alertRuleChangeCommands,
};
