import { readFileSync } from "node:fs";
import { connect, type Socket } from "node:net";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { createOrg, seededOwner, signIn } from "../fixtures/dashboard";
import { E2E_DATA_DIR, withE2eDb } from "../fixtures/e2e-db";

// Issue 41 item 4 (D373) through the real server (Next behind the custom node server): a download
// whose client stops reading is cut after the stall timeout (5 s in playwright.config.ts) and its
// database connection released; a client that goes away is no error in the server's log.

const port = Number(process.env.E2E_PORT ?? 3100);

const exportConnections = () =>
  withE2eDb(async (db) => {
    const rows = await db.$queryRaw<{ n: bigint }[]>`SELECT count(*) AS n FROM pg_stat_activity WHERE application_name = 'groundwork-export'`;
    return Number(rows[0]!.n);
  });

/** Sends the GET and reads only the first bytes, then stops reading (the socket stays open). */
function stalledDownload(pathName: string, cookie: string): Promise<{ socket: Socket; head: string; closed: Promise<void> }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    const closed = new Promise<void>((done) => socket.once("close", () => done()));
    socket.once("data", (chunk: Buffer) => {
      socket.pause();
      resolve({ socket, head: chunk.toString("latin1"), closed });
    });
    socket.on("error", () => undefined);
    socket.once("connect", () => socket.write(`GET ${pathName} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nCookie: ${cookie}\r\n\r\n`));
    setTimeout(() => reject(new Error("no answer")), 20_000);
  });
}

test("a stalled records export is cut after the stall timeout and its connection released; a disconnect is no error", async ({ page }) => {
  test.setTimeout(90_000);
  const org = await createOrg();
  // Far more CSV than the sockets' buffers hold (about 25 MB), so a client that reads nothing stalls the stream.
  await withE2eDb(async (db) => {
    for (let batch = 0; batch < 10; batch++) {
      await db.record.createMany({
        data: Array.from({ length: 5000 }, (_, i) => ({
          organizationId: org.id,
          formId: org.formId,
          createdBy: "device",
          fieldValues: { n: batch * 5000 + i, note: "x".repeat(500) },
        })),
      });
    }
  });
  await signIn(page, seededOwner());
  const cookie = (await page.context().cookies()).map((c) => `${c.name}=${c.value}`).join("; ");
  const exportPath = `/dashboard/organizations/${org.id}/forms/${org.formId}/export`;

  const stalled = await stalledDownload(exportPath, cookie);
  expect(stalled.head).toMatch(/^HTTP\/1\.1 200/);
  await expect.poll(exportConnections, { timeout: 5_000 }).toBe(1);
  const started = Date.now();
  // Cut by the server: the connection goes, and the socket is closed without the whole body.
  await expect.poll(exportConnections, { timeout: 20_000, intervals: [250] }).toBe(0);
  console.info(`stalled export: connection released ${Date.now() - started} ms after it was seen open (stall timeout 5000 ms)`);
  stalled.socket.resume();
  await stalled.closed;

  // A client that reads a little and goes away: its connection is released at once.
  const leaving = await stalledDownload(exportPath, cookie);
  await expect.poll(exportConnections, { timeout: 5_000 }).toBe(1);
  leaving.socket.destroy();
  await expect.poll(exportConnections, { timeout: 3_000, intervals: [100] }).toBe(0);
  const log = readFileSync(path.join(E2E_DATA_DIR, "start.log"), "utf8");
  expect(log).not.toMatch(/Controller is already closed|records export failed|failed to pipe response/);
});
