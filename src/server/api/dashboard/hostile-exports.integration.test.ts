import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { resetEnvCache } from "@/env";
import { newRawConnection } from "@/server/db/client";
import { logger } from "@/server/logger";
import { runningExports } from "@/server/modules/exports/export-slots";
import { createPostgresSink } from "@/server/modules/request-log/postgres-sink";
import { createBufferedWriter, type BufferedWriter } from "@/server/modules/request-log/writer";
import { EXPORT_APPLICATION_NAME } from "@/server/modules/records/export-records";
import { sessionCookie, useSessionSecret } from "@/test/csv-upload-request";
import { useTestDatabase } from "@/test/db";
import { handleAuditExport } from "./audit-export";
import { createDashboardCaller } from "./root";
import { handleRecordsExport } from "./records-export";

// The dashboard's share of the hostile-input suite, exports (issue 41 item 4, D372, D373):
// downloads that are opened and never read, as a client that stops reading leaves them.

const database = useTestDatabase();
const STALL_MS = 1500;
// The exports' request log lines go to this file's database: the process's own writer would
// reach for DATABASE_URL, which a test process does not have (and log each failed batch).
let requestLog: BufferedWriter;

beforeAll(() => {
  requestLog = createBufferedWriter(createPostgresSink(() => database.prisma));
  useSessionSecret();
  process.env.GROUNDWORK_EXPORT_STALL_TIMEOUT_MS = String(STALL_MS);
  // The exports' request log is dashboard-request-log's to test; here the process writer would
  // write through a DATABASE_URL this file does not set.
  process.env.GROUNDWORK_REQUEST_LOG = "off";
  resetEnvCache();
});
afterAll(async () => {
  await requestLog.close();
  delete process.env.GROUNDWORK_EXPORT_STALL_TIMEOUT_MS;
  delete process.env.GROUNDWORK_REQUEST_LOG;
  resetEnvCache();
});

async function exportConnections(): Promise<number> {
  const rows = await database.prisma.$queryRaw<{ n: bigint }[]>`
    SELECT count(*) AS n FROM pg_stat_activity WHERE application_name = ${EXPORT_APPLICATION_NAME} AND datname = current_database()`;
  return Number(rows[0]!.n);
}

async function until(check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function setup(members: number) {
  const db = database.prisma;
  const organization = await db.organization.create({ data: { name: `Org ${Math.random()}` } });
  const form = await db.form.create({ data: { organizationId: organization.id, name: "Visits" } });
  await db.record.createMany({
    data: Array.from({ length: 3000 }, (_, i) => ({
      organizationId: organization.id,
      formId: form.id,
      createdBy: "device",
      fieldValues: { n: i, note: "x".repeat(40) },
    })),
  });
  const users = [];
  for (let i = 0; i < members; i++) {
    const user = await db.user.create({
      data: { email: `m${i}-${Math.random()}@x.test`, passwordHash: "x", memberships: { create: { organizationId: organization.id, role: "member" } } },
    });
    users.push({ id: user.id, cookie: await sessionCookie(db, user.id) });
  }
  const open = (cookie: string) =>
    handleRecordsExport(
      new Request(`http://dash.test/dashboard/organizations/${organization.id}/forms/${form.id}/export`, { headers: { host: "dash.test", cookie } }),
      organization.id,
      form.id,
      db,
      () => newRawConnection(db),
      requestLog,
    );
  return { organization, users, open };
}

describe("exports under hostile clients", () => {
  it("100 stalled exports hold at most 8 connections, leave the API answering, and are cut after the stall timeout", { timeout: 60_000 }, async () => {
    const { organization, users, open } = await setup(50);
    const answers = await Promise.all(users.flatMap((user) => [open(user.cookie), open(user.cookie)]));
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(8);
    expect(statuses.filter((status) => status === 429)).toHaveLength(92);
    const connections = await exportConnections();
    console.info(`100 stalled exports: ${statuses.filter((s) => s === 200).length} streaming, ${connections} export connections in pg_stat_activity`);
    expect(connections).toBe(8);
    expect(runningExports()).toBe(8);

    // The API (its own pool) and the dashboard still answer.
    const owner = await database.prisma.user.create({ data: { email: `owner-${Math.random()}@x.test`, passwordHash: "x", isInstanceOwner: true } });
    const started = performance.now();
    const keys = await createDashboardCaller({ db: database.prisma, requestId: "req_test", sessionUserId: owner.id }).keys.list({
      organizationId: organization.id,
    });
    expect(keys.items).toEqual([]);
    expect(performance.now() - started).toBeLessThan(2000);

    // No one reads: each download is cut after the stall timeout, and its connection goes with it.
    const cutStarted = performance.now();
    await until(async () => (await exportConnections()) === 0, STALL_MS * 4);
    console.info(`all 8 export connections gone ${(performance.now() - cutStarted).toFixed(0)} ms after the API check (stall timeout ${STALL_MS} ms)`);
    expect(runningExports()).toBe(0);
    for (const answer of answers) if (answer.status === 200) await expect(readAll(answer)).rejects.toThrow(/read nothing/);
  });

  it("the 3rd export of one user is a 429 with Retry-After in the envelope; a finished one frees its slot", async () => {
    const { users, open } = await setup(1);
    const [cookie] = [users[0]!.cookie];
    const first = await open(cookie);
    const second = await open(cookie);
    expect([first.status, second.status]).toEqual([200, 200]);
    const third = await open(cookie);
    expect(third.status).toBe(429);
    expect(third.headers.get("retry-after")).toBe("10");
    const body = (await third.json()) as { error: { code: string; message: string }; request_id: string };
    expect(body.error.code).toBe("rate_limited");
    expect(body.error.message).toMatch(/at most 2 at once/);
    expect(body.request_id).toBe(third.headers.get("x-request-id"));
    expect((await readAll(first)).split("\r\n").length).toBeGreaterThan(3000);
    const fourth = await open(cookie);
    expect(fourth.status).toBe(200);
    // The audit export draws from the same pool.
    const audit = await handleAuditExport({ db: database.prisma, requestId: "req_audit", sessionUserId: users[0]!.id }, {});
    expect(audit.status).toBe(429);
    await second.body!.cancel();
    await fourth.body!.cancel();
    expect(runningExports()).toBe(0);
  });

  it("a client that disconnects is logged at info, and its connection is released at once", async () => {
    const { users, open } = await setup(1);
    const error = vi.spyOn(logger, "error");
    const info = vi.spyOn(logger, "info");
    try {
      const answer = await open(users[0]!.cookie);
      const reader = answer.body!.getReader();
      expect((await reader.read()).done).toBe(false);
      expect(await exportConnections()).toBe(1);
      await reader.cancel();
      await until(async () => (await exportConnections()) === 0, 1000);
      expect(runningExports()).toBe(0);
      expect(error).not.toHaveBeenCalled();
      expect(info.mock.calls.some((call) => String(call[1]).includes("the client disconnected"))).toBe(true);
    } finally {
      error.mockRestore();
      info.mockRestore();
    }
  });
});

async function readAll(answer: Response): Promise<string> {
  return new Response(answer.body).text();
}
