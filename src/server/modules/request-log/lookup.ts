import type { Db } from "@/server/db/types";
import { AppError } from "@/server/errors/app-error";
import type { RequestLogEntry } from "./entry";
import { reachIncludes, type LogReach } from "./reach";

const REQUEST_ID_PATTERN = /^req_[0-9a-z]{24}$/;

/**
 * The request id in whatever was pasted (D422): a bare id, a JSON body (`"request_id":"req_…"`),
 * a log line, a header dump. The first `req_` followed by exactly 24 letters and digits, standing
 * alone (not inside a longer word); null when there is none.
 */
export function extractRequestId(text: string): string | null {
  const match = /(?<![0-9A-Za-z_])req_[0-9a-z]{24}(?![0-9A-Za-z_])/.exec(text.slice(0, 10_000));
  return match ? match[0] : null;
}
/** The window around a request in which its organization's audit events and sync passes are shown. */
const CONTEXT_MINUTES = 10;

/** A logged request as read back: the entry as written, plus its status class (2xx, 4xx, 429, 5xx). */
export interface LoggedRequest extends RequestLogEntry {
  statusClass: string;
}

export const REQUEST_COLUMNS = `request_id AS "requestId", occurred_at AS "occurredAt", surface, organization_id AS "organizationId",
  api_key_id AS "apiKeyId", api_key_prefix AS "apiKeyPrefix", user_id AS "userId", method, route, status::int AS status, status_class AS "statusClass",
  error_code AS "errorCode", error_message AS "errorMessage", duration_ms::float8 AS "durationMs",
  response_bytes AS "responseBytes", client_address AS "clientAddress", user_agent AS "userAgent", query`;

export interface RequestDetail {
  request: LoggedRequest;
  key: { id: string; name: string; prefix: string; state: "active" | "revoked" | "expired" } | null;
  organization: { id: string; name: string } | null;
  user: { id: string; email: string } | null;
  auditEvents: { id: string; action: string; actorType: string; actorId: string | null; targetType: string; targetId: string; createdAt: Date }[];
  syncRuns: { id: string; dataSourceId: string; dataSourceName: string; trigger: string; status: string; startedAt: Date; finishedAt: Date | null }[];
}

/**
 * One request by its id, with what happened around it. A request outside the viewer's reach is
 * "not found", exactly like one that never existed (never "forbidden": D197).
 */
export async function getRequestDetail(db: Db, reach: LogReach, requestId: string, now = new Date()): Promise<RequestDetail> {
  const notFound = new AppError("not_found", `No request ${requestId.slice(0, 40)} in the request log (it keeps the last days only).`);
  if (!REQUEST_ID_PATTERN.test(requestId)) throw notFound;
  const rows = await db.$queryRawUnsafe<LoggedRequest[]>(`SELECT ${REQUEST_COLUMNS} FROM request_log WHERE request_id = $1 LIMIT 1`, requestId);
  const request = rows[0];
  if (!request || !reachIncludes(reach, request.organizationId)) throw notFound;

  const key = request.apiKeyId
    ? await db.apiKey.findUnique({ where: { id: request.apiKeyId }, select: { id: true, name: true, prefix: true, revokedAt: true, expiresAt: true } })
    : null;
  const organization = request.organizationId
    ? await db.organization.findUnique({ where: { id: request.organizationId }, select: { id: true, name: true } })
    : null;
  const user = request.userId ? await db.user.findUnique({ where: { id: request.userId }, select: { id: true, email: true } }) : null;
  const from = new Date(request.occurredAt.getTime() - CONTEXT_MINUTES * 60_000);
  const to = new Date(request.occurredAt.getTime() + CONTEXT_MINUTES * 60_000);
  const orgId = request.organizationId;
  const [auditEvents, syncRuns] = orgId
    ? await Promise.all([
        db.auditEvent.findMany({
          where: { organizationId: orgId, createdAt: { gte: from, lte: to } },
          orderBy: [{ createdAt: "asc" }, { id: "asc" }],
          take: 50,
          select: { id: true, action: true, actorType: true, actorId: true, targetType: true, targetId: true, createdAt: true },
        }),
        db.syncRun.findMany({
          where: { dataSource: { organizationId: orgId }, startedAt: { lte: to }, OR: [{ finishedAt: null }, { finishedAt: { gte: from } }] },
          orderBy: [{ startedAt: "asc" }, { id: "asc" }],
          take: 50,
          select: { id: true, dataSourceId: true, trigger: true, status: true, startedAt: true, finishedAt: true, dataSource: { select: { name: true } } },
        }),
      ])
    : [[], []];
  return {
    request,
    key: key
      ? { id: key.id, name: key.name, prefix: key.prefix, state: key.revokedAt ? "revoked" : key.expiresAt && key.expiresAt <= now ? "expired" : "active" }
      : null,
    organization,
    user,
    auditEvents,
    syncRuns: syncRuns.map(({ dataSource, ...run }) => ({ ...run, dataSourceName: dataSource.name })),
  };
}
