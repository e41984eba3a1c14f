import { cookies } from "next/headers";
import { sessionUserId } from "@/server/auth/session";
import { getPrisma } from "@/server/db/client";
import { newRequestId } from "@/server/http/request-id";
import { createDashboardCaller } from "./root";

/** Server components call the same procedures as the browser, as the signed-in user. */
export async function dashboardCaller() {
  const store = await cookies();
  const userId = await sessionUserId((name) => store.get(name)?.value);
  const requestId = newRequestId();
  return Object.assign(createDashboardCaller({ db: getPrisma(), requestId, sessionUserId: userId }), { requestIdForDisplay: requestId });
}
