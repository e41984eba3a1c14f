import type { inferRouterOutputs } from "@trpc/server";
import type { DashboardRouter } from "@/server/api/dashboard/root";

type Outputs = inferRouterOutputs<DashboardRouter>["sources"];
export type SourceSummary = Outputs["list"]["items"][number];
export type SourceDetail = Outputs["get"];
export type SyncRun = Outputs["history"]["items"][number];
export type DeletionReview = Outputs["review"];
export type SourceConnection = Outputs["connection"];
