import { pingDatabase } from "@/server/db/client";
import { checkHealth, getBuildInfo, type HealthReport } from "./health";

/**
 * The health report with a real database ping, for the home page: pages reach the database
 * through a domain function, never the client itself (the app layer's lint rule, D535).
 */
export function serviceHealth(pingTimeoutMs: number, commit: string | undefined): Promise<HealthReport> {
  return checkHealth(() => pingDatabase(pingTimeoutMs), getBuildInfo(commit));
}
