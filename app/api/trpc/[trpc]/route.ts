import { handleDashboardRequest } from "@/server/api/dashboard/handler";

export const dynamic = "force-dynamic";

export const GET = handleDashboardRequest;
export const POST = handleDashboardRequest;
