import { describe, expect, it } from "vitest";
import { createLogger, withoutRedaction } from "./logger";

function capture() {
  const lines: Record<string, unknown>[] = [];
  const log = createLogger({ write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) }, "info");
  return { log, lines };
}

describe("logger", () => {
  it("redacts tokens, secrets and connection URLs wherever a line carries them", () => {
    const { log, lines } = capture();
    log.info({ token: "gw_live_x", source: { connectionUrl: "postgres://u:p@h/db", clientSecret: "s" }, headers: { authorization: "Bearer x" } }, "line");
    expect(lines[0]).toMatchObject({
      token: "[redacted]",
      source: { connectionUrl: "[redacted]", clientSecret: "[redacted]" },
      headers: { authorization: "[redacted]" },
    });
  });

  it("writes a request line's own fields as they are, to the same destination, and leaves the parent redacting", () => {
    const { log, lines } = capture();
    const requestLine = withoutRedaction(log);
    requestLine.info({ request_id: "req_1", api_key_id: "key_1", method: "GET", path: "/api/v1/organizations", status: 200, duration_ms: 3 }, "request");
    log.info({ token: "gw_live_x" }, "line");
    expect(lines[0]).toMatchObject({
      service: "groundwork",
      request_id: "req_1",
      api_key_id: "key_1",
      path: "/api/v1/organizations",
      status: 200,
      msg: "request",
    });
    expect(lines[1]).toMatchObject({ token: "[redacted]" });
  });
});
