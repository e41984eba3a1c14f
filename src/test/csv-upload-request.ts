import { randomBytes } from "node:crypto";
import { encode } from "next-auth/jwt";
import { resetEnvCache } from "@/env";
import type { Db } from "@/server/db/types";
import { openSession } from "@/server/modules/users/sessions";

/** A NEXTAUTH_SECRET for the test process (sessions are signed with it); call in beforeAll. */
export function useSessionSecret(): void {
  process.env.NEXTAUTH_SECRET ??= randomBytes(32).toString("base64");
  resetEnvCache();
}

/** A signed-in session of `userId` as sign-in makes one: a session row and the user's version (D170). */
export async function sessionCookie(db: Db, userId: string): Promise<string> {
  const secret = process.env.NEXTAUTH_SECRET!;
  const { sessionVersion } = await db.user.findUniqueOrThrow({ where: { id: userId }, select: { sessionVersion: true } });
  const sid = await openSession(db, { userId, version: sessionVersion, address: null, maxAgeSeconds: 3600 });
  return `next-auth.session-token=${await encode({ token: { sub: userId, sid, sv: sessionVersion }, secret })}`;
}

/** A same-origin POST of `body` as the dashboard's CSV upload sends it. */
export function csvUploadRequest(target: { organizationId: string; sourceId: string }, body: BodyInit, headers: Record<string, string> = {}): Request {
  return new Request(`http://dash.test/api/dashboard/organizations/${target.organizationId}/sources/${target.sourceId}/csv`, {
    method: "POST",
    headers: { host: "dash.test", origin: "http://dash.test", "content-type": "text/csv", ...headers },
    body,
    duplex: "half",
  } as RequestInit);
}
