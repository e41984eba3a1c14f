import { serveSwaggerAsset } from "@/server/api/v1/pipeline/swagger-assets";

export const GET = serveSwaggerAsset;
