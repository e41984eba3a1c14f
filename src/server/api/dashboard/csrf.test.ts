import { describe, expect, it } from "vitest";
import { isSameOriginRequest } from "./csrf";

const headers = (init: Record<string, string>) => new Headers(init);

describe("dashboard CSRF guard", () => {
  it("accepts a same-origin POST", () => {
    expect(isSameOriginRequest(headers({ host: "127.0.0.1:3103", origin: "http://127.0.0.1:3103", "sec-fetch-site": "same-origin" }))).toBe(true);
    expect(isSameOriginRequest(headers({ host: "dash.example.com", origin: "https://dash.example.com" }))).toBe(true);
  });

  it("refuses other origins, a missing Origin, and cross-site fetch metadata", () => {
    expect(isSameOriginRequest(headers({ host: "127.0.0.1:3103", origin: "http://evil.example" }))).toBe(false);
    expect(isSameOriginRequest(headers({ host: "127.0.0.1:3103" }))).toBe(false);
    expect(isSameOriginRequest(headers({ host: "127.0.0.1:3103", origin: "null" }))).toBe(false);
    expect(isSameOriginRequest(headers({ host: "127.0.0.1:3103", origin: "http://127.0.0.1:3103", "sec-fetch-site": "cross-site" }))).toBe(false);
    expect(isSameOriginRequest(headers({ host: "127.0.0.1:3103", origin: "http://127.0.0.1:3104" }))).toBe(false);
  });
});
