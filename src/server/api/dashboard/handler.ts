import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { AppError } from "@/server/errors/app-error";
import { statusForCode } from "@/server/errors/http-status";
import { cookieReader, sessionClaim } from "@/server/auth/session";
import { getPrisma } from "@/server/db/client";
import { newRequestId, REQUEST_ID_HEADER } from "@/server/web/request-id";
import { loadViewer } from "@/server/modules/access/viewer";
import { dashboardContext } from "./caller";
import { isSameOriginRequest } from "./csrf";
import { dashboardRouter } from "./root";
import { dashboardErrorShape, sessionEnded } from "./trpc";

/** A refusal in the shape the tRPC error formatter gives (trpc.ts), so the client shows it alike. */
function refuse(error: AppError, requestId: string): Response {
  const status = statusForCode(error.code);
  return Response.json({ error: dashboardErrorShape(error, requestId) }, { status, headers: { [REQUEST_ID_HEADER]: requestId, "Cache-Control": "no-store" } });
}

/**
 * app/api/trpc/[trpc]: the dashboard's internal tRPC endpoint, authenticated by the session
 * cookie. A mutation (POST) is refused before its body is read (D177) when it is cross-site or
 * its session stands for no one; the edge has already capped the body's size.
 */
export async function handleDashboardRequest(req: Request): Promise<Response> {
  const requestId = newRequestId();
  if (req.method !== "GET" && !isSameOriginRequest(req.headers)) return refuse(new AppError("forbidden", "Cross-site request refused."), requestId);
  const claim = await sessionClaim(cookieReader(req.headers.get("cookie")));
  if (req.method === "POST") {
    const viewer = claim ? await loadViewer(getPrisma(), claim.userId, { id: claim.sessionId, version: claim.version }) : null;
    if (!viewer) return refuse(sessionEnded(), requestId);
  }
  return fetchRequestHandler({
    endpoint: "/api/trpc",
    req,
    router: dashboardRouter,
    createContext: () => dashboardContext(claim, requestId),
    // Queries are GETs (no state change); mutations must be POSTs and pass the CSRF guard above.
    allowMethodOverride: false,
    responseMeta: () => ({ headers: new Headers({ [REQUEST_ID_HEADER]: requestId, "Cache-Control": "no-store" }) }),
  });
}
