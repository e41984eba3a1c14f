import createClient, { type Client } from "openapi-fetch";
import type { PrismaClient } from "@/server/db/types";
import { createTestHandler, type ApiHandler } from "./api-client";
import type { paths } from "./generated/api-types";

export type TypedApiClient = Client<paths>;

/**
 * A client typed by the OpenAPI document (src/test/generated/api-types.ts) that calls the real
 * /api/v1 pipeline in-process: paths, parameters and bodies the document does not declare fail
 * to compile, so a test written against it also checks that the document tells the truth.
 * Returns a factory: one client per API key.
 */
export function createTypedTestClient(getDb: () => PrismaClient, handler: ApiHandler = createTestHandler(getDb)) {
  return (token?: string): TypedApiClient =>
    createClient<paths>({
      baseUrl: "http://localhost/api/v1",
      fetch: (request) => handler(request),
      headers: token ? { authorization: `Bearer ${token}` } : {},
    });
}
