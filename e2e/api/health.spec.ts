import { readFileSync } from "node:fs";
import { expect, test } from "@playwright/test";

const packageVersion = (JSON.parse(readFileSync("package.json", "utf8")) as { version: string }).version;

test("GET /api/v1/health answers 200 with the envelope and a matching X-Request-Id", async ({ request }) => {
  const res = await request.get("/api/v1/health");
  expect(res.status()).toBe(200);
  const body = (await res.json()) as { data: Record<string, unknown>; request_id: string };
  expect(body.data.status).toBe("ok");
  expect(Number.isInteger(body.data.db_latency_ms)).toBe(true);
  // The release (package.json, semver; CHANGELOG.md lists each one).
  expect(body.data.version).toBe(packageVersion);
  expect(body.data.version).toMatch(/^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/);
  expect(typeof body.data.commit).toBe("string");
  expect(body.request_id).toMatch(/^req_/);
  expect(res.headers()["x-request-id"]).toBe(body.request_id);
});

test("an unknown path is a 404 in the error shape; a POST without a key is a 401 whatever its body, never a 5xx", async ({ request }) => {
  const missing = await request.get("/api/v1/does-not-exist");
  expect(missing.status()).toBe(404);
  const missingBody = (await missing.json()) as { error: { code: string }; request_id: string };
  expect(missingBody.error.code).toBe("not_found");
  expect(missingBody.request_id).toMatch(/^req_/);

  // The key is checked before the body is read (D40): invalid JSON from a stranger is a 401.
  const invalid = await request.post("/api/v1/organizations", {
    headers: { "content-type": "application/json" },
    data: Buffer.from("{not json"),
  });
  expect(invalid.status()).toBe(401);
  const invalidBody = (await invalid.json()) as { error: { code: string }; request_id: string };
  expect(invalidBody.error.code).toBe("unauthorized");
  expect(invalidBody.request_id).toMatch(/^req_/);
  expect(invalid.headers()["x-request-id"]).toBe(invalidBody.request_id);
});

test("openapi.json is served with the real envelope schemas", async ({ request }) => {
  const res = await request.get("/api/v1/openapi.json");
  expect(res.status()).toBe(200);
  const doc = (await res.json()) as { openapi: string; components: { schemas: Record<string, unknown> } };
  expect(doc.openapi).toBe("3.1.0");
  expect(doc.components.schemas.ErrorResponse).toBeDefined();
});

test("/health stays 200 whatever credentials come with it (spec 4.4: no auth, no rate limit)", async ({ request }) => {
  const headers: Record<string, string>[] = [
    {},
    { authorization: "Bearer " },
    { authorization: "Basic dXNlcjpwYXNzd29yZA==" },
    { authorization: "Bearer gw_prod_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA" },
    { authorization: "Bearer gw_live_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA" },
  ];
  for (const header of headers) {
    const res = await request.get("/api/v1/health?access_token=gw_live_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", { headers: header });
    expect(res.status()).toBe(200);
  }
});
