import { randomBytes } from "node:crypto";
import { encode } from "next-auth/jwt";
import { resetEnvCache } from "@/env";

/** A NEXTAUTH_SECRET for the test process (sessions are signed with it); call in beforeAll. */
export function useSessionSecret(): void {
  process.env.NEXTAUTH_SECRET ??= randomBytes(32).toString("base64");
  resetEnvCache();
}

export async function sessionCookie(userId: string): Promise<string> {
  const secret = process.env.NEXTAUTH_SECRET!;
  return `next-auth.session-token=${await encode({ token: { sub: userId }, secret })}`;
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
