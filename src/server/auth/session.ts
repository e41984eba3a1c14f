import { decode } from "next-auth/jwt";
import { env } from "@/env";

// next-auth's cookie names: the __Secure- one when the dashboard is served over https.
const SESSION_COOKIES = ["__Secure-next-auth.session-token", "next-auth.session-token"];

/** What a session cookie stands for: who, which session row, and under which version (D170). */
export interface SessionClaim {
  userId: string;
  sessionId: string;
  version: number;
}

/**
 * The claim of a request's session cookie, or null. Only the signature and expiry are checked
 * here; whether that session is still open, its version still current and its user enabled is
 * the database's answer (loadViewer), asked on every request. A token without a session id
 * (signed before sessions were recorded) stands for no one.
 */
export async function sessionClaim(readCookie: (name: string) => string | undefined): Promise<SessionClaim | null> {
  const secret = env().NEXTAUTH_SECRET;
  if (!secret) return null;
  for (const name of SESSION_COOKIES) {
    const token = readCookie(name);
    if (!token) continue;
    const decoded = await decode({ token, secret }).catch(() => null);
    if (typeof decoded?.sub === "string" && typeof decoded.sid === "string" && typeof decoded.sv === "number") {
      return { userId: decoded.sub, sessionId: decoded.sid, version: decoded.sv };
    }
  }
  return null;
}

export function cookieReader(cookieHeader: string | null): (name: string) => string | undefined {
  const cookies = new Map<string, string>();
  for (const part of (cookieHeader ?? "").split(";")) {
    const index = part.indexOf("=");
    if (index <= 0) continue;
    try {
      cookies.set(part.slice(0, index).trim(), decodeURIComponent(part.slice(index + 1).trim()));
    } catch {
      // A malformed cookie is no session, not a 500.
    }
  }
  return (name) => cookies.get(name);
}
