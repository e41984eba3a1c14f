import { getRequestDetail } from "@/server/modules/request-log/lookup";
import { requirePositional, type CommandGroup } from "../command";

export const requestCommands: CommandGroup = {
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
