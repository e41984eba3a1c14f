import type { AnyTRPCRouter } from "@trpc/server";
import { generateOpenApiDocument, type OpenAPIObject } from "trpc-to-openapi";
import { errorResponseSchema } from "@/server/api/envelope";
import { MAX_BODY_BYTES } from "./read-body";
import { listApiRoutes, type ApiRoute } from "./routes";
import { healthPathItem } from "./openapi-health";

type Operation = { responses?: Record<string, unknown>; security?: unknown[] } & Record<string, unknown>;

const ERROR_REF = { $ref: "#/components/schemas/ErrorResponse" };

const errorDescriptions: Record<number, string> = {
  400: "Invalid input: the message and `details.issues` name each offending field or parameter.",
  401: "Missing, malformed, unknown, revoked or expired API key. Carries `WWW-Authenticate: Bearer`.",
  403: "`forbidden`: the key lacks the required scope (named in the message) or addresses another organization.",
  404: "`not_found`: no such resource (or not visible to this key).",
  409: "`conflict`: the Idempotency-Key was already used with a different request.",
  413: `\`payload_too_large\`: the body exceeds ${MAX_BODY_BYTES} bytes.`,
  415: "`unsupported_media_type`: send `Content-Type: application/json`.",
  429: "`rate_limited`: the key's rate budget is spent; retry after `Retry-After` seconds.",
  500: "`internal_error`: an unexpected failure; quote the request_id to support.",
  503: "`service_unavailable`: the database cannot serve the request right now, or a request with the same Idempotency-Key is still in flight; retry after `Retry-After` seconds.",
};

/**
 * The adapter's document always says 200 and uses its own error schema. This rewrites each
 * operation to state what the pipeline really answers: the success status from the
 * procedure's meta, and the one error envelope for the statuses that can occur.
 */
export function buildOpenApiDocument(router: AnyTRPCRouter, info: { version: string; serverUrl: string }): OpenAPIObject {
  const document = generateOpenApiDocument(router, {
    title: "Groundwork Customer API",
    description:
      "Field data collection: organizations, forms and records, and data sources whose rows feed lookups on mobile devices.",
    version: info.version,
    openApiVersion: "3.1.0",
    baseUrl: info.serverUrl,
    securitySchemes: { bearerAuth: { type: "http", scheme: "bearer", description: "`Authorization: Bearer gw_<live|test>_<32 A-Z0-9>`" } },
    defs: { ErrorResponse: errorResponseSchema },
  });

  const routes = listApiRoutes(router);
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const [method, operation] of Object.entries(item as Record<string, Operation>)) {
      const route = routes.find((r) => r.path === path && r.method === method.toUpperCase());
      if (route) rewriteOperation(operation, route);
    }
  }
  document.paths = { "/health": healthPathItem(), ...document.paths };
  dropAdapterErrorSchemas(document);
  return document;
}

function rewriteOperation(operation: Operation, route: ApiRoute): void {
  const generated = operation.responses ?? {};
  const success = generated["200"] as Record<string, unknown> | undefined;
  const status = String(route.meta.successStatus ?? 200);
  const idempotent = route.method === "POST" || route.method === "PATCH";
  const responses: Record<string, unknown> = {
    [status]: idempotent ? { ...success, headers: { "X-Idempotent-Replay": REPLAY_HEADER } } : success,
  };
  for (const code of errorStatuses(route)) {
    responses[String(code)] = {
      description: errorDescriptions[code],
      ...(code === 401 ? { headers: { "WWW-Authenticate": { schema: { type: "string", const: "Bearer" } } } } : {}),
      ...(code === 429 || code === 503 ? { headers: { "Retry-After": { schema: { type: "integer" } } } } : {}),
      content: { "application/json": { schema: ERROR_REF } },
    };
  }
  operation.responses = responses;
  if (idempotent) operation.parameters = [...((operation.parameters as unknown[]) ?? []), IDEMPOTENCY_KEY_PARAMETER];
  if (route.meta.access === "public") operation.security = [];
}

/** Spec 8: accepted on every POST and PATCH; stated here so typed clients can send it. */
const IDEMPOTENCY_KEY_PARAMETER = {
  in: "header",
  name: "Idempotency-Key",
  required: false,
  description: "Opaque, 1–255 characters. A retry with the same key and byte-identical body replays the first 2xx answer.",
  schema: { type: "string", minLength: 1, maxLength: 255 },
};

const REPLAY_HEADER = {
  description: "`true` when this is the stored answer to an earlier request with the same Idempotency-Key.",
  schema: { type: "string", const: "true" },
};

/** The adapter adds its own error schemas; every operation now points at ErrorResponse instead. */
function dropAdapterErrorSchemas(document: OpenAPIObject): void {
  const schemas = document.components?.schemas;
  if (!schemas) return;
  for (const name of Object.keys(schemas)) if (name.startsWith("error.")) delete schemas[name];
}

function errorStatuses(route: ApiRoute): number[] {
  const codes = [400];
  if (route.meta.access !== "public") codes.push(401, 403);
  codes.push(404);
  const takesBody = ["POST", "PUT", "PATCH"].includes(route.method);
  if (route.method === "POST" || route.method === "PATCH") codes.push(409);
  if (takesBody) codes.push(413, 415);
  if (route.meta.access !== "public") codes.push(429);
  codes.push(500);
  if (route.meta.access !== "public") codes.push(503);
  return codes;
}

