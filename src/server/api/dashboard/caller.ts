import { cookies } from "next/headers";
import { sessionUserId } from "@/server/auth/session";
import { getPrisma } from "@/server/db/client";
import { newRequestId } from "@/server/http/request-id";
import type { DashboardContext } from "./context";
import { createDashboardCaller } from "./root";

/** The context of a server component's calls: the request's session cookie, a fresh request id. */
export async function serverComponentContext(): Promise<DashboardContext> {
  const store = await cookies();
  const userId = await sessionUserId((name) => store.get(name)?.value);
  return { db: getPrisma(), requestId: newRequestId(), sessionUserId: userId };
}

/** Server components call the same procedures as the browser, as the signed-in user. */
export async function dashboardCaller() {
  return createDashboardCaller(await serverComponentContext());
}
