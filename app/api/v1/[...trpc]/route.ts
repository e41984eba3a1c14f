import { apiHandler } from "@/server/api/v1/pipeline/api-handler";

export const dynamic = "force-dynamic";

export const GET = apiHandler;
export const POST = apiHandler;
export const PUT = apiHandler;
export const PATCH = apiHandler;
export const DELETE = apiHandler;
export const OPTIONS = apiHandler;
export const HEAD = apiHandler;
