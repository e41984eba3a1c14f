import { describe, expect, it } from "vitest";
import { useTestDatabase } from "@/test/db";
import { handleAuditExport } from "./audit-export";
import type { DashboardContext } from "./context";
import { createDashboardCaller } from "./root";

const database = useTestDatabase();

const contextOf = (sessionUserId: string | null, requestId = "req_export_test"): DashboardContext => ({ db: database.prisma, requestId, sessionUserId });

async function errorOf(response: Response) {
  const body = (await response.json()) as { error: { code: string; message: string }; request_id: string };
  return {
    status: response.status,
    code: body.error.code,
    message: body.error.message,
    requestId: body.request_id,
    header: response.headers.get("x-request-id"),
  };
}

describe("dashboard audit export route", () => {
  it("answers a refusal in the one error body with its status and request id, not a 401 for every failure", async () => {
    const owner = await database.prisma.user.create({ data: { email: `owner-${Math.random()}@x.test`, passwordHash: "x", isInstanceOwner: true } });
    expect(await errorOf(await handleAuditExport(contextOf(null, "req_signed_out"), {}))).toMatchObject({
      status: 401,
      code: "unauthorized",
      requestId: "req_signed_out",
    });
    expect(await errorOf(await handleAuditExport(contextOf(owner.id, "req_bad_filter"), { actor: "a\u0000" }))).toMatchObject({
      status: 400,
      code: "bad_request",
      message: "Invalid request. actor: must not contain the NUL character (U+0000)",
      requestId: "req_bad_filter",
    });
  });

  it("streams every event matching the filter, page after page, as CSV with the request id", async () => {
    const owner = await database.prisma.user.create({ data: { email: `owner-${Math.random()}@x.test`, passwordHash: "x", isInstanceOwner: true } });
    const caller = createDashboardCaller(contextOf(owner.id));
    const names = Array.from({ length: 5 }, (_, i) => `Export ${i} ${Math.random()}`);
    for (const name of names) await caller.organizations.create({ name });
    const response = await handleAuditExport(contextOf(owner.id, "req_export_ok"), { actor: owner.id }, 2);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("x-request-id")).toBe("req_export_ok");
    const lines = (await response.text()).trimEnd().split("\r\n");
    expect(lines[0]).toBe("time,action,actor_type,actor_id,actor,organization_id,organization,target_type,target_id,target,metadata");
    // Five events by this owner, read in pages of two.
    expect(lines).toHaveLength(1 + names.length);
    for (const name of names) expect(lines.filter((line) => line.includes(name))).toHaveLength(1);
  });
});
