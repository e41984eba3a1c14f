import { decode } from "next-auth/jwt";
import { env } from "@/env";

// next-auth's cookie names: the __Secure- one when the dashboard is served over https.
const SESSION_COOKIES = ["__Secure-next-auth.session-token", "next-auth.session-token"];

/**
 * The user id a request's session cookie stands for, or null. Only the signature and expiry
 * are checked here; whether that user still exists, is enabled and may act is the database's
 * answer (loadViewer), asked on every request.
 */
export async function sessionUserId(readCookie: (name: string) => string | undefined): Promise<string | null> {
  const secret = env().NEXTAUTH_SECRET;
  if (!secret) return null;
  for (const name of SESSION_COOKIES) {
    const token = readCookie(name);
    if (!token) continue;
    const decoded = await decode({ token, secret }).catch(() => null);
    if (typeof decoded?.sub === "string") return decoded.sub;
  }
  return null;
}

export function cookieReader(cookieHeader: string | null): (name: string) => string | undefined {
  const cookies = new Map<string, string>();
  for (const part of (cookieHeader ?? "").split(";")) {
    const index = part.indexOf("=");
    if (index > 0) cookies.set(part.slice(0, index).trim(), decodeURIComponent(part.slice(index + 1).trim()));
  }
  return (name) => cookies.get(name);
}
