import { parseTimestamp } from "@/server/api/timestamp-param";
import { isStorableInstant } from "@/server/db/postgres-values";
import {
  BROWSE_LIMIT_MAX,
  listRequestLog,
  organizationNames,
  REQUEST_METHODS,
  type RequestLogFilters,
  type RequestMethod,
} from "@/server/modules/request-log/browse";
import { STATUS_CLASSES, SURFACES, type StatusClass, type Surface } from "@/server/modules/request-log/entry";
import { getRequestDetail } from "@/server/modules/request-log/lookup";
import { CliUsageError, optionalOption, requirePositional, wholeNumberOption, type CliArgs, type CommandGroup } from "../command";

/** A bound of the log, in the forms the API's timestamp parameters take (D154), from year 1 on. */
function time(args: CliArgs, name: string): Date | undefined {
  const value = args.values[name];
  if (typeof value !== "string") return undefined;
  const parsed = parseTimestamp(value.trim());
  if (!parsed.ok) throw new CliUsageError(`--${name} ${parsed.problem}`);
  if (!isStorableInstant(parsed.date)) throw new CliUsageError(`--${name} must be a time from year 1 on`);
  return parsed.date;
}

function oneOf<T extends string>(args: CliArgs, name: string, choices: readonly T[], normalise = (v: string) => v): T | undefined {
  const value = optionalOption(args, name);
  if (value === undefined) return undefined;
  const normalised = normalise(value.trim());
  if (!(choices as readonly string[]).includes(normalised)) throw new CliUsageError(`--${name} must be one of ${choices.join(", ")}`);
  return normalised as T;
}

export const requestCommands: CommandGroup = {
  list: {
    usage:
      "request list [--org ORG] [--status-class 2xx|4xx|429|5xx] [--status CODE] [--method M] [--route ROUTE] [--key KEY_ID] [--surface api|dashboard] [--from ISO] [--to ISO] [--limit N] [--cursor C]",
    summary: "The request log, newest first, one page (next_cursor for the next); the dashboard's Requests page",
    options: {
      org: { type: "string" },
      "status-class": { type: "string" },
      status: { type: "string" },
      method: { type: "string" },
      route: { type: "string" },
      key: { type: "string" },
      surface: { type: "string" },
      from: { type: "string" },
      to: { type: "string" },
      limit: { type: "string" },
      cursor: { type: "string" },
    },
    async run(ctx, args) {
      const filters: RequestLogFilters = {
        organizationId: optionalOption(args, "org")?.trim() || undefined,
        statusClass: oneOf<StatusClass>(args, "status-class", STATUS_CLASSES, (v) => v.toLowerCase()),
        status: wholeNumberOption(args, "status", { min: 100, max: 599 }),
        method: oneOf<RequestMethod>(args, "method", REQUEST_METHODS, (v) => v.toUpperCase()),
        route: optionalOption(args, "route")?.trim() || undefined,
        apiKeyId: optionalOption(args, "key")?.trim() || undefined,
        surface: oneOf<Surface>(args, "surface", SURFACES, (v) => v.toLowerCase()),
        from: time(args, "from"),
        to: time(args, "to"),
      };
      const limit = wholeNumberOption(args, "limit", { min: 1, max: BROWSE_LIMIT_MAX }) ?? 50;
      // NOTE: the shell operator runs the instance: every organization's requests (D197).
      const page = await listRequestLog(ctx.db, { kind: "all" }, filters, { limit, cursor: optionalOption(args, "cursor") });
      const names = await organizationNames(ctx.db, page.items);
      const items = page.items.map((r) => ({
        request_id: r.requestId,
        occurred_at: r.occurredAt.toISOString(),
        method: r.method,
        route: r.route,
        status: r.status,
        status_class: r.statusClass,
        surface: r.surface,
        user_id: r.userId,
        error_code: r.errorCode,
        duration_ms: Math.round(r.durationMs * 100) / 100,
        key: r.apiKeyId ? { id: r.apiKeyId, prefix: r.apiKeyPrefix } : null,
        organization: r.organizationId ? { id: r.organizationId, name: names.get(r.organizationId) ?? null } : null,
      }));
      const human = items.length
        ? items
            .map(
              (r) =>
                `${r.occurred_at}  ${String(r.status).padEnd(4)} ${`${r.method} ${r.route}`.padEnd(60)} ${String(r.duration_ms).padStart(8)} ms  ${r.request_id}  ${r.organization?.name ?? ""}`,
            )
            .join("\n") + (page.nextCursor ? `\n(more: --cursor ${page.nextCursor})` : "")
        : "No requests match.";
      ctx.print({ items, next_cursor: page.nextCursor }, human);
    },
  },
  show: {
    usage: "request show REQUEST_ID",
    summary: "One API or dashboard request from the request log, with its organization's audit events and sync passes around it",
    async run(ctx, args) {
      // NOTE: the shell operator runs the instance: every organization's requests.
      const detail = await getRequestDetail(ctx.db, { kind: "all" }, requirePositional(args, 0, "REQUEST_ID"));
      const r = detail.request;
      const json = {
        request_id: r.requestId,
        occurred_at: r.occurredAt.toISOString(),
        surface: r.surface,
        method: r.method,
        route: r.route,
        status: r.status,
        error: r.errorCode ? { code: r.errorCode, message: r.errorMessage } : null,
        duration_ms: Math.round(r.durationMs * 100) / 100,
        response_bytes: r.responseBytes,
        client_address: r.clientAddress,
        user_agent: r.userAgent,
        query: r.query,
        key: detail.key,
        user: detail.user,
        organization: detail.organization,
        audit_events: detail.auditEvents.map((e) => ({ ...e, createdAt: e.createdAt.toISOString() })),
        sync_runs: detail.syncRuns.map((s) => ({ ...s, startedAt: s.startedAt.toISOString(), finishedAt: s.finishedAt?.toISOString() ?? null })),
      };
      const lines = [
        `${r.requestId}  ${r.occurredAt.toISOString()}`,
        `  ${r.method} ${r.route} → ${r.status}${r.errorCode ? ` ${r.errorCode}: ${r.errorMessage ?? ""}` : ""}`,
        `  ${json.duration_ms} ms, ${r.responseBytes} bytes, from ${r.clientAddress ?? "?"} (${r.userAgent ?? "no user agent"})`,
        r.surface === "dashboard"
          ? `  dashboard, user: ${detail.user ? `${detail.user.email} (${detail.user.id})` : (r.userId ?? "none (signed out)")}`
          : `  key: ${detail.key ? `${detail.key.name} ${detail.key.prefix}… (${detail.key.state})` : (r.apiKeyPrefix ?? "none")}`,
        `  organization: ${detail.organization ? `${detail.organization.name} (${detail.organization.id})` : (r.organizationId ?? "none")}`,
        `  audit events around it: ${detail.auditEvents.length}, sync passes around it: ${detail.syncRuns.length}`,
        ...detail.auditEvents.map((e) => `    ${e.createdAt.toISOString()} ${e.action} ${e.targetType}:${e.targetId}`),
        ...detail.syncRuns.map((s) => `    ${s.startedAt.toISOString()} sync ${s.dataSourceName} ${s.status}`),
      ];
      ctx.print(json, lines.join("\n"));
    },
  },
};
