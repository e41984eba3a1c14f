import type { AnyTRPCRouter } from "@trpc/server";
import { generateOpenApiDocument, type OpenAPIObject } from "trpc-to-openapi";
import { errorResponseSchema } from "@/server/api/v1/response-envelope";
import { MAX_BODY_BYTES } from "@/server/transport/read-body";
import { listApiRoutes, type ApiRoute } from "./routes";
import { healthPathItem } from "./openapi-health";

type Operation = { responses?: Record<string, unknown>; security?: unknown[] } & Record<string, unknown>;

const ERROR_REF = { $ref: "#/components/schemas/ErrorResponse" };

const API_DESCRIPTION = [
  "Field data collection: organizations, forms and records, and data sources whose rows feed lookups on mobile devices.",
  "",
  "**Authentication.** Every operation but `/health` needs `Authorization: Bearer <API key>`; a missing, malformed, revoked or expired key gets 401 with `WWW-Authenticate: Bearer`. Each operation states the scope it requires (its security requirement and the first line of its description); scopes are `<resource>:<action>`, where `<resource>:*` and `*:*` grant every action. An organization-scoped key may address only its own organization.",
  "",
  "**Instance surfaces.** `/users` and `/instance` exist for instance-scoped keys but have no operation in this version: no or a bad key gets 401, an organization-scoped key 403, an instance-scoped key 404.",
  "",
  "**Parameters.** A query parameter an operation does not declare is a 400 naming it. Timestamps are ISO 8601 / RFC 3339 with an offset (`Z`, `z`, `±hh:mm`, `±hhmm`, `±hh`; `T`, `t` or a space between date and time; any number of fractional digits), or a date alone, read as midnight UTC; a date and time without an offset is refused. Time filters are exclusive bounds.",
  "",
  "**Limits.** Lists page by cursor (`limit` 1–100, default 25; pass `meta.next_cursor` back as `cursor` until it is null). Each key has a rate budget set when it was minted: past it, 429 with `Retry-After` (seconds). Writes take an `Idempotency-Key` (see the header's description). Every answer, success or error, carries `request_id`.",
].join("\n");

const errorDescriptions: Record<number, string> = {
  400: "Invalid input: the message and `details.issues` name each offending field or parameter. A query parameter the operation does not declare is refused too, named in `details.parameter` (a misspelling is never ignored).",
  401: "Missing, malformed, unknown, revoked or expired API key. Carries `WWW-Authenticate: Bearer`.",
  403: "`forbidden`: the key lacks the required scope (named in the message) or addresses another organization.",
  404: "`not_found`: no such resource (or not visible to this key).",
  409: "`conflict`: the Idempotency-Key was already used with a different request body (bytes compared: re-ordered JSON keys or other whitespace count as different) or another path.",
  413: `\`payload_too_large\`: the body exceeds ${MAX_BODY_BYTES} bytes.`,
  415: "`unsupported_media_type`: send `Content-Type: application/json`.",
  429: "`rate_limited`: the key's rate budget (set when the key was minted, per key) is spent; retry after the `Retry-After` header's seconds (also in `details.retry_after_seconds`).",
  500: "`internal_error`: an unexpected failure; quote the request_id to support.",
  503: "`service_unavailable`: the database cannot serve the request right now, or (on POST and PATCH) a request with the same Idempotency-Key is still in flight; retry after the `Retry-After` header's seconds, with the same key.",
};

/**
 * The adapter's document always says 200 and uses its own error schema. This rewrites each
 * operation to state what the pipeline really answers: the success status from the
 * procedure's meta, and the one error envelope for the statuses that can occur.
 */
export function buildOpenApiDocument(router: AnyTRPCRouter, info: { version: string; serverUrl: string }): OpenAPIObject {
  const document = generateOpenApiDocument(router, {
    title: "Groundwork Customer API",
    description: API_DESCRIPTION,
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
  if (route.meta.access === "public") {
    operation.security = [];
    return;
  }
  // OpenAPI 3.1 lets a bearer scheme's requirement list roles: the scope the key must hold (D160).
  operation.security = [{ bearerAuth: route.meta.scope ? [route.meta.scope] : [] }];
  operation.description = [accessText(route), operation.description as string | undefined].filter(Boolean).join("\n\n");
}

/** The required scope and binding, in words, at the head of each operation's description. */
function accessText(route: ApiRoute): string {
  const { scope, access, orgParam } = route.meta;
  const [resource] = (scope ?? "").split(":");
  const scopeText = scope ? `**Required scope:** \`${scope}\` (also granted by \`${resource}:*\` and \`*:*\`); a key without it gets 403 naming it.` : "";
  const binding =
    access === "instance"
      ? "**Key:** instance-scoped only; an organization-scoped key gets 403."
      : orgParam
        ? `**Key:** an organization-scoped key may address only its own organization in \`{${orgParam}}\` (403 otherwise); an instance-scoped key may address any.`
        : "";
  return [scopeText, binding].filter(Boolean).join(" ");
}

/** Spec 8: accepted on every POST and PATCH; stated here so typed clients can send it. */
const IDEMPOTENCY_KEY_PARAMETER = {
  in: "header",
  name: "Idempotency-Key",
  required: false,
  description: [
    "Opaque, 1–255 characters (Unicode characters, sent as UTF-8). Scoped to the API key: two keys may use the same string.",
    "A repeat with the same key, path and byte-identical body replays the first answer (same status and body, `X-Idempotent-Replay: true`) without running the operation again.",
    "The body bytes are compared: re-ordered JSON keys or changed whitespace are a different body and get 409 `conflict`.",
    "Only 2xx answers are stored; after a failure the same key runs the operation again.",
    "A key replays for at least 24 hours from its first request (expired keys are cleaned hourly, so up to about 25 hours).",
    "While the first request with a key is still running, a repeat gets 503 with `Retry-After`: retry it with the same key.",
  ].join(" "),
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
