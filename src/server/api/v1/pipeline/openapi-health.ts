/** /health is a plain route handler, not a procedure: its document entry is written by hand. */
export function healthPathItem() {
  const report = (status: "ok" | "degraded") => ({
    type: "object",
    required: ["data", "request_id"],
    properties: {
      data: {
        type: "object",
        required: ["status", "db_latency_ms", "version", "commit"],
        properties: {
          status: { type: "string", const: status },
          db_latency_ms: status === "ok" ? { type: "integer" } : { type: ["integer", "null"] },
          version: { type: "string" },
          commit: { type: "string" },
        },
      },
      request_id: { type: "string", pattern: "^req_" },
    },
  });
  return {
    get: {
      operationId: "getHealth",
      summary: "Liveness and database reachability",
      description: "Unauthenticated, public and never rate-limited. A 200 shows the API routes requests and reaches its database.",
      tags: ["health"],
      security: [],
      responses: {
        "200": { description: "Healthy.", content: { "application/json": { schema: report("ok") } } },
        "503": { description: "`degraded`: the database ping failed or timed out.", content: { "application/json": { schema: report("degraded") } } },
      },
    },
  };
}
