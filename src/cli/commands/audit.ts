import { auditCsvLine, AUDIT_CSV_HEADER } from "@/server/modules/audit/audit-csv";
import { auditChanges } from "@/server/modules/audit/audit-changes";
import { getAuditEvent, listAuditEvents, type AuditEventRow, type AuditFilters } from "@/server/modules/audit/list-audit-events";
import { AppError } from "@/server/errors/app-error";
import { parseTimestamp } from "@/server/api/timestamp-param";
import { isStorableInstant } from "@/server/db/postgres-values";
import { CliUsageError, optionalOption, requirePositional, wholeNumberOption, type CliArgs, type CommandGroup } from "../command";

/** A bound of the trail, in the forms the API's timestamp parameters take (D154), from year 1 on. */
function time(args: CliArgs, name: string): Date | undefined {
  const value = args.values[name];
  if (typeof value !== "string") return undefined;
  const parsed = parseTimestamp(value.trim());
  if (!parsed.ok) throw new CliUsageError(`--${name} ${parsed.problem}`);
  if (!isStorableInstant(parsed.date)) throw new CliUsageError(`--${name} must be a time from year 1 on`);
  return parsed.date;
}

/** One event as `audit list` and `audit show` print it: the target by its name as of the event (D440). */
function eventJson(e: AuditEventRow) {
  return {
    id: e.id,
    created_at: e.createdAt.toISOString(),
    action: e.action,
    actor: { type: e.actorType, id: e.actorId, label: e.actorLabel },
    organization: e.organizationId ? { id: e.organizationId, name: e.organizationName } : null,
    target: { type: e.targetType, id: e.targetId, label: e.targetLabel, label_as_of: e.targetLabelAsOf, exists: e.targetExists },
    metadata: e.metadata,
  };
}

const targetText = (e: AuditEventRow) => `${e.targetType} ${e.targetLabel ? `"${e.targetLabel}"` : e.targetId}${e.targetExists === false ? " (gone)" : ""}`;

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
        ctx.io.stdout.write(`${[AUDIT_CSV_HEADER.join(","), ...page.items.map(auditCsvLine)].join("\n")}\n`);
        return;
      }
      const items = page.items.map(eventJson);
      const human = page.items.length
        ? page.items
            .map(
              (e) =>
                `${e.createdAt.toISOString()}  ${e.action.padEnd(28)} ${(e.actorLabel ?? e.actorType).padEnd(24)} ${targetText(e)}  ${e.organizationName ?? ""}`,
            )
            .join("\n") + (page.nextCursor ? `\n(more: --cursor ${page.nextCursor})` : "")
        : "No audit events match.";
      ctx.print({ items, next_cursor: page.nextCursor }, human);
    },
  },
  show: {
    usage: "audit show EVENT_ID",
    summary: "One audit event: its target by name, its metadata and, for an edit, each field before and after",
    async run(ctx, args) {
      // NOTE: the shell operator runs the instance: every organization's events (as `audit list`).
      const eventId = requirePositional(args, 0, "EVENT_ID");
      const event = await getAuditEvent(ctx.db, { kind: "all" }, eventId);
      if (!event) throw new AppError("not_found", `No audit event ${eventId}.`);
      const changes = auditChanges(event.action, event.metadata);
      const lines = [
        `${event.id}  ${event.createdAt.toISOString()}  ${event.action}`,
        `  actor: ${event.actorLabel ?? event.actorId ?? event.actorType} (${event.actorType})`,
        `  target: ${targetText(event)} [${event.targetId}]`,
        `  organization: ${event.organizationName ?? event.organizationId ?? "instance"}`,
        ...(changes.length ? ["  changes:", ...changes.map((c) => `    ${c.field}: ${JSON.stringify(c.before)} → ${JSON.stringify(c.after)}`)] : []),
        `  metadata: ${JSON.stringify(event.metadata ?? {})}`,
      ];
      ctx.print({ ...eventJson(event), changes: changes.map((c) => ({ field: c.field, before: c.before, after: c.after })) }, lines.join("\n"));
    },
  },
};
