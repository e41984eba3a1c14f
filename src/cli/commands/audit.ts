import { auditCsvLine, AUDIT_CSV_HEADER } from "@/server/modules/audit/audit-csv";
import { listAuditEvents, type AuditFilters } from "@/server/modules/audit/list-audit-events";
import { parseTimestamp } from "@/server/api/timestamp-param";
import { isStorableInstant } from "@/server/lib/postgres-values";
import { CliUsageError, optionalOption, wholeNumberOption, type CliArgs, type CommandGroup } from "../command";

/** A bound of the trail, in the forms the API's timestamp parameters take (D154), from year 1 on. */
function time(args: CliArgs, name: string): Date | undefined {
  const value = args.values[name];
  if (typeof value !== "string") return undefined;
  const parsed = parseTimestamp(value.trim());
  if (!parsed.ok) throw new CliUsageError(`--${name} ${parsed.problem}`);
  if (!isStorableInstant(parsed.date)) throw new CliUsageError(`--${name} must be a time from year 1 on`);
  return parsed.date;
}

export const auditCommands: CommandGroup = {
  list: {
    usage: "audit list [--org ORG] [--actor EMAIL|ID] [--action A] [--target ID] [--from ISO] [--to ISO] [--limit N] [--cursor C] [--csv]",
    summary: "The audit trail, newest first, one page (next_cursor for the next)",
    options: {
      org: { type: "string" },
      actor: { type: "string" },
      action: { type: "string" },
      target: { type: "string" },
      from: { type: "string" },
      to: { type: "string" },
      limit: { type: "string" },
      cursor: { type: "string" },
      csv: { type: "boolean" },
    },
    async run(ctx, args) {
      const limit = wholeNumberOption(args, "limit", { min: 1, max: 1000 }) ?? 50;
      const filters: AuditFilters = {
        organizationId: optionalOption(args, "org"),
        actor: optionalOption(args, "actor"),
        action: optionalOption(args, "action"),
        target: optionalOption(args, "target"),
        from: time(args, "from"),
        to: time(args, "to"),
      };
      const page = await listAuditEvents(ctx.db, { kind: "all" }, filters, { limit, cursor: optionalOption(args, "cursor") });
      if (args.values.csv === true) {
        process.stdout.write(`${[AUDIT_CSV_HEADER.join(","), ...page.items.map(auditCsvLine)].join("\n")}\n`);
        return;
      }
      const items = page.items.map((e) => ({
        id: e.id,
        created_at: e.createdAt.toISOString(),
        action: e.action,
        actor: { type: e.actorType, id: e.actorId, label: e.actorLabel },
        organization: e.organizationId ? { id: e.organizationId, name: e.organizationName } : null,
        target: { type: e.targetType, id: e.targetId },
        metadata: e.metadata,
      }));
      const human = items.length
        ? items
            .map((e) => `${e.created_at}  ${e.action.padEnd(28)} ${(e.actor.label ?? e.actor.type).padEnd(24)} ${e.target.type}:${e.target.id}  ${e.organization?.name ?? ""}`)
            .join("\n") + (page.nextCursor ? `\n(more: --cursor ${page.nextCursor})` : "")
        : "No audit events match.";
      ctx.print({ items, next_cursor: page.nextCursor }, human);
    },
  },
};
