import type { inferRouterOutputs } from "@trpc/server";
import type { DashboardRouter } from "@/server/api/dashboard/root";

export type KeyRow = inferRouterOutputs<DashboardRouter>["keys"]["list"]["items"][number];

/** What a new key starts from: empty, or a rotated key's scopes and budget. */
export interface MintDefaults {
  name: string;
  environment: "live" | "test";
  scopes: string[];
  rateLimit: number;
  rotatingKeyId?: string;
}
