import { z } from "zod";
import { cookieReader, sessionClaim } from "@/server/auth/session";
import { getPrisma } from "@/server/db/client";
import { AppError, isAppError } from "@/server/errors/app-error";
import { errorBody } from "@/server/errors/error-body";
import { statusForCode } from "@/server/errors/http-status";
import { CLIENT_ADDRESS_HEADER } from "@/server/auth/client-address-header";
import { logger } from "@/server/logger";
import { loadViewer } from "@/server/modules/access/viewer";
import { acceptInvitationAsNewAccount, acceptInvitationByLink, openInvitationLink } from "@/server/modules/memberships/invitation-links";
import { newRequestId, REQUEST_ID_HEADER } from "@/server/transport/request-id";
import { isSameOriginRequest } from "../dashboard/csrf";

const token = z.string().min(1).max(200);
const bodySchema = z.discriminatedUnion("action", [
  z.object({ action: z.literal("open"), token }),
  z.object({ action: z.literal("accept_new"), token, password: z.string().max(1024), name: z.string().max(200).optional() }),
  z.object({ action: z.literal("accept_signed_in"), token }),
]);

function answer(body: unknown, status: number, requestId: string): Response {
  return Response.json(body, { status, headers: { [REQUEST_ID_HEADER]: requestId, "Cache-Control": "no-store" } });
}

/**
 * POST /api/invitation: the invitation link's page, signed out (D472). The token comes in the
 * body (the page reads it from the URL's fragment, which no server or proxy log ever sees) and
 * is only hashed here. Every lookup is within the client address's budget, as sign-in is (D473).
 * Same-origin only, like every dashboard POST (D177). The answer never says whether an account
 * has the invited email; only "accept_new" on such an email is refused, to its mailbox's owner.
 */
export async function handleInvitationRequest(req: Request): Promise<Response> {
  const requestId = newRequestId();
  try {
    if (!isSameOriginRequest(req.headers)) throw new AppError("forbidden", "Cross-site request refused.");
    const text = await req.text();
    if (text.length > 4096) throw new AppError("payload_too_large", "The request is too large.");
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new AppError("bad_request", "The request is not JSON.");
    }
    const parsed = bodySchema.safeParse(json);
    if (!parsed.success) throw new AppError("bad_request", "The request does not name an invitation action.");
    const body = parsed.data;
    const db = getPrisma();
    const address = req.headers.get(CLIENT_ADDRESS_HEADER) ?? "unknown";
    if (body.action === "open") {
      const preview = await openInvitationLink(db, body.token, address);
      const claim = await sessionClaim(cookieReader(req.headers.get("cookie")));
      const viewer = claim ? await loadViewer(db, claim.userId, { id: claim.sessionId, version: claim.version }) : null;
      return answer({ ...preview, expiresAt: preview.expiresAt.toISOString(), signedInAs: viewer?.email ?? null, request_id: requestId }, 200, requestId);
    }
    if (body.action === "accept_new") {
      const joined = await acceptInvitationAsNewAccount(db, body.token, { password: body.password, name: body.name }, address);
      return answer({ organizationId: joined.organizationId, email: joined.email, request_id: requestId }, 200, requestId);
    }
    const claim = await sessionClaim(cookieReader(req.headers.get("cookie")));
    const viewer = claim ? await loadViewer(db, claim.userId, { id: claim.sessionId, version: claim.version }) : null;
    if (!viewer) throw new AppError("unauthorized", "Sign in first, then accept.");
    const joined = await acceptInvitationByLink(db, viewer, body.token, address);
    return answer({ organizationId: joined.organizationId, request_id: requestId }, 200, requestId);
  } catch (error) {
    const appError = isAppError(error) ? error : new AppError("internal_error", "Something went wrong on our side.");
    // NOTE: the body (which holds the token) is never logged, only the request id and the error.
    if (!isAppError(error)) logger.error({ request_id: requestId, err: error }, "invitation request failed");
    return answer(errorBody(appError, requestId), statusForCode(appError.code), requestId);
  }
}
