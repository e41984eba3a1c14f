import { cookieReader, sessionClaim } from "@/server/auth/session";
import type { Db } from "@/server/db/types";
import { loadViewer, type Viewer } from "@/server/modules/access/viewer";

/**
 * The signed-in viewer of a plain dashboard route handler (the CSV upload, the records export),
 * checked exactly as every tRPC call is: the cookie's signature, then its session row, version
 * and user in the database (D170). Null means "sign in again".
 */
export async function requestViewer(db: Db, req: Request): Promise<Viewer | null> {
  const claim = await sessionClaim(cookieReader(req.headers.get("cookie")));
  return claim ? loadViewer(db, claim.userId, { id: claim.sessionId, version: claim.version }) : null;
}
