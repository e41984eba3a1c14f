import { env } from "@/env";
import { appRouter } from "@/server/api/v1/root";
import { getBuildInfo } from "@/server/modules/health/health";
import { buildOpenApiDocument } from "./openapi-document";
import { newRequestId, REQUEST_ID_HEADER } from "@/server/transport/request-id";

let cached: string | undefined;

/** GET /api/v1/openapi.json: generated from the routers once per process. */
export async function openApiDocumentResponse(): Promise<Response> {
  const { PUBLIC_URL, GROUNDWORK_COMMIT } = env();
  cached ??= JSON.stringify(
    buildOpenApiDocument(appRouter, {
      version: getBuildInfo(GROUNDWORK_COMMIT).version,
      // A relative server URL keeps "Try it out" on whatever host served the document.
      serverUrl: PUBLIC_URL ? `${PUBLIC_URL}/api/v1` : "/api/v1",
    }),
  );
  return new Response(cached, {
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Cache-Control": "no-cache",
      [REQUEST_ID_HEADER]: newRequestId(),
    },
  });
}
