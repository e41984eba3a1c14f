import { handleHealthRequest } from "@/server/http/health-route";

export const dynamic = "force-dynamic";

export const GET = handleHealthRequest;
