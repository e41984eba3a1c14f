import type { PrismaClient } from "@/server/db/types";

/** What every dashboard procedure starts from: who is asking is resolved by sessionProcedure. */
export interface DashboardContext {
  db: PrismaClient;
  requestId: string;
  /** From the signed session cookie; null when signed out or expired. */
  sessionUserId: string | null;
}
