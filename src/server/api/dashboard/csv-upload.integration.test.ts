import { beforeAll, describe, expect, it } from "vitest";
import { createUser } from "@/server/modules/users/create-user";
import { csvUploadRequest, sessionCookie, useSessionSecret } from "@/test/csv-upload-request";
import { useTestDatabase } from "@/test/db";
import { useTestRequestLog } from "@/test/request-log";
import { handleCsvUpload, UPLOAD_CSV_MAX_BYTES } from "./csv-upload";

const database = useTestDatabase();
const requestLog = useTestRequestLog(database);
beforeAll(() => useSessionSecret());

async function setup() {
  const db = database.prisma;
  const owner = await db.user.create({ data: { email: `owner-${Math.random()}@x.test`, passwordHash: "x", isInstanceOwner: true } });
  const a = await db.organization.create({ data: { name: "A" } });
  const b = await db.organization.create({ data: { name: "B" } });
  const make = (input: Parameters<typeof createUser>[1]) => createUser(db, input, { type: "user", id: owner.id });
  const admin = await make({ email: `admin-${Math.random()}@x.test`, membership: { organizationId: a.id, role: "admin" } });
  const member = await make({ email: `member-${Math.random()}@x.test`, membership: { organizationId: a.id, role: "member" } });
  const support = await make({ email: `support-${Math.random()}@x.test`, instanceRole: "support" });
  const source = await db.dataSource.create({ data: { organizationId: a.id, name: "Prices", kind: "csv", config: { keyColumn: "sku" } } });
  const inB = await db.dataSource.create({ data: { organizationId: b.id, name: "Other", kind: "csv", config: { keyColumn: "sku" } } });
  return { owner, admin, member, support, target: { organizationId: a.id, sourceId: source.id }, inB, a };
}

/** A body that counts what the handler pulled from it: `chunks` chunks of `size` bytes of CSV. */
function countingBody(chunks: number, size: number) {
  const pulled = { bytes: 0 };
  let sent = 0;
  // Rows of 1 KiB, each with its own key: the file stays valid CSV (within every limit but size) as long as it runs.
  const row = () => Array.from({ length: size / 1024 }, (_, i) => `K${sent}-${i},`.padEnd(1023, "x") + "\n").join("");
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent === chunks) return controller.close();
      const bytes = new TextEncoder().encode(sent === 0 ? `sku,name\n${row().slice(1024)}` : row());
      sent++;
      pulled.bytes += bytes.byteLength;
      controller.enqueue(bytes);
    },
  });
  return { stream, pulled };
}

async function send(userId: string | null, target: { organizationId: string; sourceId: string }, body: BodyInit, headers: Record<string, string> = {}) {
  const cookie: Record<string, string> = userId ? { cookie: await sessionCookie(database.prisma, userId) } : {};
  const response = await handleCsvUpload(csvUploadRequest(target, body, { ...cookie, ...headers }), target, database.prisma, requestLog.writer);
  const json = (await response.json()) as { error?: { code: string; message: string }; request_id?: string; dataVersion?: number };
  return { status: response.status, json };
}

async function unchanged(sourceId: string) {
  const source = await database.prisma.dataSource.findUniqueOrThrow({ where: { id: sourceId } });
  const rows = await database.prisma.dataSourceRow.count({ where: { dataSourceId: sourceId } });
  const audits = await database.prisma.auditEvent.count({ where: { targetId: sourceId } });
  return { dataVersion: source.dataVersion, rows, audits };
}

describe("dashboard CSV upload route", () => {
  it("refuses without a session (401), across sites (403), for support and members (403), elsewhere (404), non-CSV (415), before reading the body", async () => {
    const s = await setup();
    const before = await unchanged(s.target.sourceId);
    const cases: Array<[string | null, { organizationId: string; sourceId: string }, Record<string, string>, number, string]> = [
      [null, s.target, {}, 401, "unauthorized"],
      [s.admin.id, s.target, { origin: "http://evil.test" }, 403, "forbidden"],
      [s.support.id, s.target, {}, 403, "forbidden"],
      [s.member.id, s.target, {}, 403, "forbidden"],
      [s.admin.id, { organizationId: s.inB.organizationId, sourceId: s.inB.id }, {}, 403, "forbidden"],
      [s.owner.id, { organizationId: s.a.id, sourceId: s.inB.id }, {}, 404, "not_found"],
      [s.admin.id, s.target, { "content-type": "application/json" }, 415, "unsupported_media_type"],
      // Postgres cannot hold U+0000: a 400, not the failed statement's 500.
      [s.owner.id, { organizationId: s.a.id, sourceId: "x\u0000y" }, {}, 400, "bad_request"],
    ];
    for (const [userId, target, headers, status, code] of cases) {
      const { stream, pulled } = countingBody(10, 1024);
      const { status: got, json } = await send(userId, target, stream, headers);
      expect({ got, code: json.error?.code }).toEqual({ got: status, code });
      expect(json.request_id).toMatch(/\S/);
      // A ReadableStream pulls its first chunk when created; nothing past it was asked for.
      expect(pulled.bytes).toBeLessThanOrEqual(1024);
    }
    expect(await unchanged(s.target.sourceId)).toEqual(before);
  });

  it("refuses a body over the cap with 413 while it streams, without reading the rest", async () => {
    const s = await setup();
    const before = await unchanged(s.target.sourceId);
    const size = 256 * 1024;
    const chunks = Math.ceil(UPLOAD_CSV_MAX_BYTES / size) + 40; // ~10 MB past the cap
    const { stream, pulled } = countingBody(chunks, size);
    const { status, json } = await send(s.admin.id, s.target, stream);
    expect({ status, code: json.error?.code, message: json.error?.message }).toMatchObject({ status: 413, code: "payload_too_large" });
    expect(json.request_id).toMatch(/\S/);
    expect(pulled.bytes).toBeGreaterThan(UPLOAD_CSV_MAX_BYTES);
    expect(pulled.bytes).toBeLessThan(UPLOAD_CSV_MAX_BYTES + 4 * size);
    // A declared length over the cap is refused before a byte is read.
    const declared = countingBody(10, 1024);
    const early = await send(s.admin.id, s.target, declared.stream, { "content-length": String(UPLOAD_CSV_MAX_BYTES + 1) });
    expect(early.status).toBe(413);
    expect(declared.pulled.bytes).toBeLessThanOrEqual(1024);
    expect(await unchanged(s.target.sourceId)).toEqual(before);
  });

  it("a CSV over a limit is a 400 naming the limit and the line, and nothing changes; a good one is one audit event", async () => {
    const s = await setup();
    const ok = await send(s.admin.id, s.target, "sku,name\nA1,first\n");
    expect(ok.status).toBe(200);
    expect(ok.json.dataVersion).toBe(2);
    const before = await unchanged(s.target.sourceId);
    expect(before.audits).toBe(1);
    const cell = `sku,name\nA1,ok\nB2,${"x".repeat(40_000)}\n`;
    const over = await send(s.admin.id, s.target, cell);
    expect(over.status).toBe(400);
    expect(over.json.error?.message).toMatch(/line 3, column "name".*the limit is 32 767.*Nothing was changed/);
    expect(await unchanged(s.target.sourceId)).toEqual(before);
  });
});
