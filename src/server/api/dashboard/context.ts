import type { PrismaClient } from "@/server/db/types";
import type { DashboardTrace } from "@/server/transport/record-dashboard-request";
import type { Viewer } from "@/server/modules/access/viewer";

/** What every dashboard procedure starts from: who is asking is resolved by sessionProcedure. */
export interface DashboardContext {
  db: PrismaClient;
  requestId: string;
  /** From the signed session cookie; null when signed out or expired. */
  sessionUserId: string | null;
  /**
   * The cookie's session row and version (D170), checked against the database on every call.
   * Requests always carry it (dashboardContext); only tests building a caller by hand leave it out.
   */
  session?: { id: string; version: number };
  /** The viewer the endpoint already loaded for this request (handler.ts), so it is read once. */
  preloadedViewer?: Viewer;
  /** The request log's notes on this call (D420): the procedures fill in the organization its input names. */
  trace?: DashboardTrace;
}
