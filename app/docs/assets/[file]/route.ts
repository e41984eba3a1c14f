import { serveSwaggerAsset } from "@/server/http/swagger-assets";

export const GET = serveSwaggerAsset;
