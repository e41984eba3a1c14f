import type { NextAuthOptions } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import { env } from "@/env";
import { getPrisma } from "@/server/db/client";
import { verifySignIn } from "@/server/modules/users/sign-in";

/** Sessions end this long after sign-in (D62); a new sign-in is needed after. */
export const SESSION_MAX_AGE_SECONDS = 8 * 60 * 60;

export function lockedMessage(retryAfterSeconds: number): string {
  const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60));
  return `Too many failed sign-ins. This account is locked for ${minutes} minute${minutes === 1 ? "" : "s"}.`;
}

export const INVALID_CREDENTIALS_MESSAGE = "Wrong email or password.";

/**
 * next-auth 4 with email + password and JWT sessions (Credentials cannot use database
 * sessions). The token carries only the user id (`sub`): roles and memberships are read from
 * the database on every request (src/server/api/dashboard/trpc.ts).
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
        async authorize(credentials) {
          const email = credentials?.email ?? "";
          const password = credentials?.password ?? "";
          if (email === "" || password === "" || email.length > 320 || password.length > 1024) throw new Error(INVALID_CREDENTIALS_MESSAGE);
          const result = await verifySignIn(getPrisma(), email, password);
          if (result.ok) return { id: result.userId };
          throw new Error(result.reason === "locked" ? lockedMessage(result.retryAfterSeconds) : INVALID_CREDENTIALS_MESSAGE);
        },
      }),
    ],
    callbacks: {
      // Only who the user is; nothing that could go stale (roles, email, name).
      jwt({ token, user }) {
        return { sub: user?.id ?? token.sub };
      },
      session({ session, token }) {
        return { expires: session.expires, user: { id: token.sub } } as typeof session;
      },
    },
  };
}
