import type { inferRouterOutputs } from "@trpc/server";
import type { DashboardRouter } from "@/server/api/dashboard/root";

type Outputs = inferRouterOutputs<DashboardRouter>;
export type RequestDetail = Outputs["requests"]["get"];
export type KeyUsage = Outputs["usage"]["key"];
export type KeyRequestsPage = Outputs["usage"]["keyRequests"];
export type AuditPage = Outputs["audit"]["list"];
export type RequestLogPage = Outputs["requests"]["list"];
export type AuditEvent = AuditPage["items"][number];
export type AuditEventDetail = Outputs["audit"]["get"];
