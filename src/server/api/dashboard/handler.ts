import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { cookieReader, sessionUserId } from "@/server/auth/session";
import { getPrisma } from "@/server/db/client";
import { newRequestId, REQUEST_ID_HEADER } from "@/server/http/request-id";
import { isSameOriginRequest } from "./csrf";
import { dashboardRouter } from "./root";

/** app/api/trpc/[trpc]: the dashboard's internal tRPC endpoint, authenticated by the session cookie. */
export async function handleDashboardRequest(req: Request): Promise<Response> {
  const requestId = newRequestId();
  if (req.method !== "GET" && !isSameOriginRequest(req.headers)) {
    const body = { error: { code: "forbidden", message: "Cross-site request refused." }, request_id: requestId };
    return Response.json(body, { status: 403, headers: { [REQUEST_ID_HEADER]: requestId } });
  }
  const userId = await sessionUserId(cookieReader(req.headers.get("cookie")));
  return fetchRequestHandler({
    endpoint: "/api/trpc",
    req,
    router: dashboardRouter,
    createContext: () => ({ db: getPrisma(), requestId, sessionUserId: userId }),
    // Queries are GETs (no state change); mutations must be POSTs and pass the CSRF guard above.
    allowMethodOverride: false,
    responseMeta: () => ({ headers: new Headers({ [REQUEST_ID_HEADER]: requestId, "Cache-Control": "no-store" }) }),
  });
}
