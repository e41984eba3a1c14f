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
  /**
   * The request's viewer, read from the database once however many procedures the request calls
   * (sessionProcedure fills it): the tRPC endpoint and the plain routes hand in the one they loaded
   * before the call; a server component's load() shares one across its calls. Without it (a
   * caller built by hand) each call loads its own.
   */
  viewerOnce?: ViewerOnce;
  /** The request log's notes on this call (D420): the procedures fill in the organization its input names. */
  trace?: DashboardTrace;
}

/** A shared holder (a spread context keeps pointing at it): the first load is every call's. */
export interface ViewerOnce {
  viewer?: Promise<Viewer | null>;
}

/** The holder of a viewer already loaded for this request. */
export function knownViewer(viewer: Viewer): ViewerOnce {
  return { viewer: Promise.resolve(viewer) };
}
