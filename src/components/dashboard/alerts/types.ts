import type { inferRouterOutputs } from "@trpc/server";
import type { DashboardRouter } from "@/server/api/dashboard/root";

type Out = inferRouterOutputs<DashboardRouter>["alerts"];
export type ChannelRow = Out["channels"][number];
export type RuleRow = Out["rules"][number];
export type DeliveryRow = Out["deliveries"]["items"][number];
export type DeliveriesPage = Out["deliveries"];
export type OpenAlerts = Out["open"];
export interface SourceOption {
  id: string;
  name: string;
}

export const STATE_LABELS: Record<string, string> = { ok: "OK", needs_attention: "Needs attention", error: "Error", stale: "Stale" };
