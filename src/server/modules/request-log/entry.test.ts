import { describe, expect, it } from "vitest";
import { keptQuery, statusClass, truncate } from "./entry";
import { rollup } from "./postgres-sink";

describe("what the request log keeps of a query string", () => {
  it("keeps limit, sort, include_* and time filters; drops cursors, ids and anything else", () => {
    const search = new URLSearchParams(
      "limit=5&cursor=abc&sort=updated_at&include_deleted=true&updated_after=2026-01-01T00:00:00Z&external_id=ACME-1&access_token=gw_live_X&q=secret",
    );
    expect(keptQuery(search)).toEqual({ limit: "5", sort: "updated_at", include_deleted: "true", updated_after: "2026-01-01T00:00:00Z" });
    expect(keptQuery(new URLSearchParams("cursor=abc"))).toBeNull();
    expect(keptQuery(new URLSearchParams(`limit=${"9".repeat(100)}`))?.limit).toHaveLength(64);
  });

  it("truncates without splitting a surrogate pair", () => {
    expect(truncate("abc\u{1F600}", 4)).toBe("abc");
    expect(truncate("abc\u{1F600}", 5)).toBe("abc\u{1F600}");
    expect(truncate("abcdef", 4)).toBe("abcd");
    expect(truncate("", 4)).toBeNull();
  });

  it("sorts statuses into 2xx, 4xx, 429 and 5xx", () => {
    expect([200, 201, 304, 400, 401, 404, 429, 500, 503].map(statusClass)).toEqual(["2xx", "2xx", "2xx", "4xx", "4xx", "4xx", "429", "5xx", "5xx"]);
  });

  it("rolls a batch up per key, hour, status class and route; requests without a key are not charted", () => {
    const base = {
      surface: "api" as const,
      userId: null,
      organizationId: "o",
      apiKeyPrefix: "p",
      method: "GET",
      errorCode: null,
      errorMessage: null,
      durationMs: 1,
      responseBytes: 1,
      clientAddress: null,
      userAgent: null,
      query: null,
    };
    const at = (iso: string) => new Date(iso);
    const rows = rollup([
      { ...base, requestId: "1", occurredAt: at("2026-11-25T10:05:00Z"), apiKeyId: "k", route: "r", status: 200 },
      { ...base, requestId: "2", occurredAt: at("2026-11-25T10:55:00Z"), apiKeyId: "k", route: "r", status: 201 },
      { ...base, requestId: "3", occurredAt: at("2026-11-25T11:00:00Z"), apiKeyId: "k", route: "r", status: 429 },
      { ...base, requestId: "4", occurredAt: at("2026-11-25T11:00:00Z"), apiKeyId: null, route: "r", status: 401 },
    ]);
    expect(rows.map((r) => [r.hour, r.statusClass, r.requests])).toEqual([
      ["2026-11-25T10:00:00.000Z", "2xx", 2],
      ["2026-11-25T11:00:00.000Z", "429", 1],
    ]);
  });
});
