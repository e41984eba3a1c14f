import { cookies } from "next/headers";
import { sessionClaim, type SessionClaim } from "@/server/auth/session";
import { getPrisma } from "@/server/db/client";
import type { PrismaClient } from "@/server/db/types";
import { newRequestId } from "@/server/transport/request-id";
import type { DashboardContext } from "./context";
import { createDashboardCaller } from "./root";

/** A request's context from its session claim (or none); its procedures share one viewer. */
export function dashboardContext(claim: SessionClaim | null, requestId: string, db: PrismaClient = getPrisma()): DashboardContext {
  return {
    db,
    requestId,
    sessionUserId: claim?.userId ?? null,
    ...(claim ? { session: { id: claim.sessionId, version: claim.version } } : {}),
    viewerOnce: {},
  };
}

/** The context of a server component's calls: the request's session cookie, a fresh request id. */
export async function serverComponentContext(): Promise<DashboardContext> {
  const store = await cookies();
  return dashboardContext(await sessionClaim((name) => store.get(name)?.value), newRequestId());
}

/** Server components call the same procedures as the browser, as the signed-in user. */
export async function dashboardCaller() {
  return createDashboardCaller(await serverComponentContext());
}
