import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resetEnvCache } from "@/env";
import { getPrisma } from "@/server/db/client";
import { createUser } from "@/server/modules/users/create-user";
import { getRequestDetail } from "@/server/modules/request-log/lookup";
import { logReachFor } from "@/server/modules/request-log/reach";
import { createPostgresSink } from "@/server/modules/request-log/postgres-sink";
import { createBufferedWriter } from "@/server/modules/request-log/writer";
import { loadViewer } from "@/server/modules/access/viewer";
import { csvUploadRequest, sessionCookie, useSessionSecret } from "@/test/csv-upload-request";
import { useTestDatabase } from "@/test/db";
import { handleLoggedAuditExport } from "./audit-export";
import { CSV_UPLOAD_ROUTE, handleCsvUpload } from "./csv-upload";
import { handleDashboardRequest } from "./handler";
import { handleRecordsExport, RECORDS_EXPORT_ROUTE } from "./records-export";

const database = useTestDatabase();
beforeAll(() => {
  useSessionSecret();
  // The tRPC endpoint loads its viewer through the process's client (getPrisma), as under Next.
  process.env.DATABASE_URL = database.url;
  resetEnvCache();
});
afterAll(async () => {
  await getPrisma().$disconnect();
});

interface Row {
  request_id: string;
  surface: string;
  user_id: string | null;
  organization_id: string | null;
  api_key_id: string | null;
  route: string;
  method: string;
  status: number;
  error_code: string | null;
}

async function setup() {
  const db = database.prisma;
  const owner = await db.user.create({ data: { email: `owner-${Math.random()}@x.test`, passwordHash: "x", isInstanceOwner: true } });
  const a = await db.organization.create({ data: { name: "A" } });
  const b = await db.organization.create({ data: { name: "B" } });
  const by = { type: "user" as const, id: owner.id };
  const adminA = await createUser(db, { email: `admin-a-${Math.random()}@x.test`, membership: { organizationId: a.id, role: "admin" } }, by);
  const adminB = await createUser(db, { email: `admin-b-${Math.random()}@x.test`, membership: { organizationId: b.id, role: "admin" } }, by);
  const source = await db.dataSource.create({ data: { organizationId: a.id, name: "Prices", kind: "csv", config: { keyColumn: "sku" } } });
  const form = await db.form.create({ data: { organizationId: a.id, name: "Visits" } });
  const writer = createBufferedWriter(createPostgresSink(() => db));
  const rows = async (requestId: string | null) => {
    await writer.flush();
    return db.$queryRawUnsafe<Row[]>(
      `SELECT request_id, surface, user_id, organization_id, api_key_id, route, method, status::int AS status, error_code FROM request_log WHERE request_id = $1`,
      requestId,
    );
  };
  return { db, owner, a, b, adminA, adminB, source, form, writer, rows };
}

describe("dashboard answers in the request log (D420, D421)", () => {
  it("a failed CSV upload is logged under its request id with the user, and found by its organization's admins only", async () => {
    const s = await setup();
    const target = { organizationId: s.a.id, sourceId: s.source.id };
    const cookie = await sessionCookie(s.db, s.adminA.id);
    const response = await handleCsvUpload(csvUploadRequest(target, "x", { cookie, "content-type": "application/json" }), target, s.db, s.writer);
    expect(response.status).toBe(415);
    const requestId = ((await response.json()) as { request_id: string }).request_id;
    expect(await s.rows(requestId)).toEqual([
      {
        request_id: requestId,
        surface: "dashboard",
        user_id: s.adminA.id,
        organization_id: s.a.id,
        api_key_id: null,
        route: CSV_UPLOAD_ROUTE,
        method: "POST",
        status: 415,
        error_code: "unsupported_media_type",
      },
    ]);

    const reachOf = async (userId: string) => logReachFor((await loadViewer(s.db, userId))!);
    const detail = await getRequestDetail(s.db, await reachOf(s.adminA.id), requestId);
    expect(detail.request).toMatchObject({ surface: "dashboard", userId: s.adminA.id, apiKeyId: null });
    expect(detail.user).toEqual({ id: s.adminA.id, email: s.adminA.email });
    expect((await getRequestDetail(s.db, await reachOf(s.owner.id), requestId)).user?.id).toBe(s.adminA.id);
    await expect(getRequestDetail(s.db, await reachOf(s.adminB.id), requestId)).rejects.toMatchObject({ code: "not_found" });
  });

  it("logs tRPC answers by procedure, never files a call under an organization its caller is not in, and logs signed-out refusals", async () => {
    const s = await setup();
    const call = async (userId: string | null, path: string, input: unknown) => {
      const headers: Record<string, string> = { host: "dash.test" };
      if (userId) headers.cookie = await sessionCookie(s.db, userId);
      const response = await handleDashboardRequest(
        new Request(`http://dash.test/api/trpc/${path}?input=${encodeURIComponent(JSON.stringify(input))}`, { headers }),
        s.writer,
      );
      return { status: response.status, requestId: response.headers.get("x-request-id") };
    };
    const ok = await call(s.adminA.id, "organizations.get", { organizationId: s.a.id });
    expect(ok.status).toBe(200);
    expect(await s.rows(ok.requestId)).toMatchObject([
      {
        surface: "dashboard",
        user_id: s.adminA.id,
        organization_id: s.a.id,
        route: "/api/trpc/organizations.get",
        method: "GET",
        status: 200,
        error_code: null,
      },
    ]);

    // Admin of B naming A: refused, filed under B (the caller's only organization), not A.
    const probe = await call(s.adminB.id, "organizations.get", { organizationId: s.a.id });
    expect(probe.status).toBeGreaterThanOrEqual(400);
    expect(await s.rows(probe.requestId)).toMatchObject([{ user_id: s.adminB.id, organization_id: s.b.id }]);

    const signedOut = await call(null, "organizations.get", { organizationId: s.a.id });
    expect(signedOut.status).toBe(401);
    expect(await s.rows(signedOut.requestId)).toMatchObject([
      { surface: "dashboard", user_id: null, organization_id: null, status: 401, error_code: "unauthorized" },
    ]);

    const unknown = await call(s.owner.id, "no.such.procedure", {});
    expect(unknown.status).toBe(404);
    expect(await s.rows(unknown.requestId)).toMatchObject([{ route: "unmatched", user_id: s.owner.id }]);
  });

  it("logs the records and audit exports", async () => {
    const s = await setup();
    const cookie = await sessionCookie(s.db, s.adminA.id);
    const records = await handleRecordsExport(
      new Request(`http://dash.test/dashboard/organizations/${s.a.id}/forms/${s.form.id}/export?created_after=bad`, { headers: { host: "dash.test", cookie } }),
      s.a.id,
      s.form.id,
      s.db,
      undefined,
      s.writer,
    );
    expect(records.status).toBe(400);
    expect(await s.rows(records.headers.get("x-request-id"))).toMatchObject([
      { surface: "dashboard", route: RECORDS_EXPORT_ROUTE, user_id: s.adminA.id, organization_id: s.a.id, status: 400, error_code: "bad_request" },
    ]);

    const requestId = `req_${"a".repeat(24)}`;
    const audit = await handleLoggedAuditExport(
      new Request("http://dash.test/dashboard/audit/export", { headers: { host: "dash.test" } }),
      { db: s.db, requestId, sessionUserId: s.owner.id },
      {},
      s.writer,
    );
    expect(audit.status).toBe(200);
    await audit.body?.cancel();
    expect(await s.rows(requestId)).toMatchObject([{ surface: "dashboard", route: "/dashboard/audit/export", user_id: s.owner.id, status: 200 }]);
  });
});
