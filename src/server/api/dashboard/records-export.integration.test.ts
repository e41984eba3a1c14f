import { beforeAll, describe, expect, it } from "vitest";
import { sessionCookie, useSessionSecret } from "@/test/csv-upload-request";
import { useTestDatabase } from "@/test/db";
import { useTestRequestLog } from "@/test/request-log";
import { handleRecordsExport } from "./records-export";

const database = useTestDatabase();
const requestLog = useTestRequestLog(database);
beforeAll(() => useSessionSecret());

describe("dashboard records export route", () => {
  it("refuses ids and filters Postgres cannot store with a 400 naming them, before any query (each was a 500)", async () => {
    const db = database.prisma;
    const owner = await db.user.create({ data: { email: `owner-${Math.random()}@x.test`, passwordHash: "x", isInstanceOwner: true } });
    const organization = await db.organization.create({ data: { name: "A" } });
    const cookie = await sessionCookie(db, owner.id);
    const exportOf = async (formId: string, query = "") => {
      const request = new Request(`http://dash.test/dashboard/organizations/${organization.id}/forms/${encodeURIComponent(formId)}/export${query}`, {
        headers: { host: "dash.test", cookie },
      });
      const response = await handleRecordsExport(request, organization.id, formId, db, undefined, requestLog.writer);
      const body = (await response.json()) as { error: { code: string; message: string }; request_id: string };
      return { status: response.status, code: body.error.code, message: body.error.message, requestId: body.request_id };
    };
    expect(await exportOf("f\u0000")).toMatchObject({
      status: 400,
      code: "bad_request",
      message: "Invalid request. formId: must not contain the NUL character (U+0000)",
    });
    expect(await exportOf("f", "?submitted_by=a%00b")).toMatchObject({
      status: 400,
      code: "bad_request",
      message: "Invalid request. submitted_by: must not contain the NUL character (U+0000)",
    });
    const unknown = await exportOf("no-such-form");
    expect(unknown).toMatchObject({ status: 404, code: "not_found" });
    expect(unknown.requestId).toMatch(/^req_/);
  });
});
