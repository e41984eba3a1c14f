import { z } from "zod";
import { SURFACES } from "@/server/modules/request-log/entry";
import type { LoggedRequest, RequestDetail } from "@/server/modules/request-log/lookup";
import { iso, isoOrNull, isoString } from "../iso";

export const getRequestInput = z.object({ requestId: z.string().trim().min(1).max(200) });

export const loggedRequestSchema = z.object({
  requestId: z.string(),
  occurredAt: isoString,
  surface: z.enum(SURFACES),
  organizationId: z.string().nullable(),
  apiKeyId: z.string().nullable(),
  apiKeyPrefix: z.string().nullable(),
  userId: z.string().nullable(),
  method: z.string(),
  route: z.string(),
  status: z.number().int(),
  statusClass: z.string(),
  errorCode: z.string().nullable(),
  errorMessage: z.string().nullable(),
  durationMs: z.number(),
  responseBytes: z.number().int(),
  clientAddress: z.string().nullable(),
  userAgent: z.string().nullable(),
  query: z.record(z.string(), z.string()).nullable(),
});

export const getRequestOutput = z.object({
  request: loggedRequestSchema,
  key: z.object({ id: z.string(), name: z.string(), prefix: z.string(), state: z.enum(["active", "revoked", "expired"]) }).nullable(),
  organization: z.object({ id: z.string(), name: z.string() }).nullable(),
  /** The signed-in user of a dashboard answer (D420), null when none or since deleted. */
  user: z.object({ id: z.string(), email: z.string() }).nullable(),
  auditEvents: z.array(
    z.object({
      id: z.string(),
      action: z.string(),
      actorType: z.string(),
      actorId: z.string().nullable(),
      targetType: z.string(),
      targetId: z.string(),
      createdAt: isoString,
    }),
  ),
  syncRuns: z.array(
    z.object({
      id: z.string(),
      dataSourceId: z.string(),
      dataSourceName: z.string(),
      trigger: z.string(),
      status: z.string(),
      startedAt: isoString,
      finishedAt: isoString.nullable(),
    }),
  ),
});

export function toLoggedRequestDto(request: LoggedRequest): z.infer<typeof loggedRequestSchema> {
  return { ...request, occurredAt: iso(request.occurredAt), durationMs: Math.round(request.durationMs * 100) / 100 };
}

export function toRequestDetailDto(detail: RequestDetail): z.infer<typeof getRequestOutput> {
  return {
    request: toLoggedRequestDto(detail.request),
    key: detail.key,
    organization: detail.organization,
    user: detail.user,
    auditEvents: detail.auditEvents.map((e) => ({ ...e, createdAt: iso(e.createdAt) })),
    syncRuns: detail.syncRuns.map((r) => ({ ...r, startedAt: iso(r.startedAt), finishedAt: isoOrNull(r.finishedAt) })),
  };
}
