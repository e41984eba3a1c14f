import type { NextAuthOptions } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import { env } from "@/env";
import { getPrisma } from "@/server/db/client";
import { CLIENT_ADDRESS_HEADER } from "@/server/auth/client-address-header";
import { endSession, openSession } from "@/server/modules/users/sessions";
import { verifySignIn } from "@/server/modules/users/sign-in";

/** Sessions end this long after sign-in (D62); a new sign-in is needed after. */
const SESSION_MAX_AGE_SECONDS = 8 * 60 * 60;

function lockedMessage(retryAfterSeconds: number): string {
  const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60));
  return `Too many failed sign-ins for this account from your address. Try again in ${minutes} minute${minutes === 1 ? "" : "s"}, or ask an instance owner to unlock it.`;
}

function addressLockedMessage(retryAfterSeconds: number): string {
  const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60));
  return `Too many failed sign-ins from your address. Try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`;
}

const INVALID_CREDENTIALS_MESSAGE = "Wrong email or password.";
const BUSY_MESSAGE = "Too many sign-ins for this account at once. Try again in a moment.";

interface SignedInUser {
  id: string;
  sessionVersion: number;
  address: string | null;
}

function headerValue(headers: unknown, name: string): string | null {
  if (!headers || typeof headers !== "object") return null;
  const value = (headers as Record<string, unknown>)[name];
  return typeof value === "string" && value !== "" ? value : null;
}

/**
 * next-auth 4 with email + password and JWT sessions (Credentials cannot use database
 * sessions). The token carries the user id (`sub`), its session row (`sid`) and the user's
 * session version (`sv`) at sign-in (D170): roles and memberships are read from the database on
 * every request, and the session row and version are checked there too.
 */
export function authOptions(): NextAuthOptions {
  return {
    secret: env().NEXTAUTH_SECRET,
    session: { strategy: "jwt", maxAge: SESSION_MAX_AGE_SECONDS },
    jwt: { maxAge: SESSION_MAX_AGE_SECONDS },
    pages: { signIn: "/sign-in", error: "/sign-in" },
    providers: [
      CredentialsProvider({
        name: "Email and password",
        credentials: { email: { label: "Email", type: "email" }, password: { label: "Password", type: "password" } },
        async authorize(credentials, req) {
          const email = credentials?.email ?? "";
          const password = credentials?.password ?? "";
          if (email === "" || password === "" || email.length > 320 || password.length > 1024) throw new Error(INVALID_CREDENTIALS_MESSAGE);
          // Set by the HTTP edge from the socket (or a configured proxy's X-Forwarded-For), never by the client.
          const address = headerValue(req?.headers, CLIENT_ADDRESS_HEADER);
          const result = await verifySignIn(getPrisma(), { email, password, address: address ?? "unknown" });
          if (result.ok) return { id: result.userId, sessionVersion: result.sessionVersion, address } satisfies SignedInUser;
          if (result.reason === "locked") throw new Error(lockedMessage(result.retryAfterSeconds));
          if (result.reason === "address_locked") throw new Error(addressLockedMessage(result.retryAfterSeconds));
          if (result.reason === "busy") throw new Error(BUSY_MESSAGE);
          throw new Error(INVALID_CREDENTIALS_MESSAGE);
        },
      }),
    ],
    callbacks: {
      // Who the user is and which session this is; nothing that could go stale (roles, email, name).
      async jwt({ token, user }) {
        if (user) {
          const signedIn = user as unknown as SignedInUser;
          const sid = await openSession(getPrisma(), {
            userId: signedIn.id,
            version: signedIn.sessionVersion,
            address: signedIn.address,
            maxAgeSeconds: SESSION_MAX_AGE_SECONDS,
          });
          return { sub: signedIn.id, sid, sv: signedIn.sessionVersion };
        }
        return { sub: token.sub, sid: token.sid, sv: token.sv };
      },
      session({ session, token }) {
        return { expires: session.expires, user: { id: token.sub } } as typeof session;
      },
    },
    events: {
      // Sign-out ends this session's row, so a copy of the cookie is refused from now on.
      async signOut({ token }) {
        if (typeof token?.sid === "string") await endSession(getPrisma(), token.sid);
      },
    },
  };
}
