import { handleDashboardRequest } from "@/server/api/dashboard/handler";

export const dynamic = "force-dynamic";

// NOTE: not `GET = handleDashboardRequest`: Next passes the route's params as a second argument.
export const GET = (req: Request) => handleDashboardRequest(req);
export const POST = (req: Request) => handleDashboardRequest(req);
