import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { cookieReader, sessionClaim } from "@/server/auth/session";
import { getPrisma } from "@/server/db/client";
import { newRequestId, REQUEST_ID_HEADER } from "@/server/http/request-id";
import { loadViewer } from "@/server/modules/access/viewer";
import { dashboardContext } from "./caller";
import { isSameOriginRequest } from "./csrf";
import { dashboardRouter } from "./root";

const TRPC_CODES: Record<number, [number, string]> = { 401: [-32001, "UNAUTHORIZED"], 403: [-32003, "FORBIDDEN"] };

/** A refusal in the shape the tRPC error formatter gives (trpc.ts), so the client shows it alike. */
function refuse(status: 401 | 403, code: string, message: string, requestId: string): Response {
  const [rpcCode, name] = TRPC_CODES[status]!;
  const error = { message, code: rpcCode, data: { code: name, httpStatus: status }, error: { code, message }, request_id: requestId };
  return Response.json({ error }, { status, headers: { [REQUEST_ID_HEADER]: requestId, "Cache-Control": "no-store" } });
}

/**
 * app/api/trpc/[trpc]: the dashboard's internal tRPC endpoint, authenticated by the session
 * cookie. A mutation (POST) is refused before its body is read (D177) when it is cross-site or
 * its session stands for no one; the edge has already capped the body's size.
 */
export async function handleDashboardRequest(req: Request): Promise<Response> {
  const requestId = newRequestId();
  if (req.method !== "GET" && !isSameOriginRequest(req.headers)) return refuse(403, "forbidden", "Cross-site request refused.", requestId);
  const claim = await sessionClaim(cookieReader(req.headers.get("cookie")));
  if (req.method === "POST") {
    const viewer = claim ? await loadViewer(getPrisma(), claim.userId, { id: claim.sessionId, version: claim.version }) : null;
    if (!viewer) return refuse(401, "unauthorized", "Your session has ended. Sign in again.", requestId);
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
