import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashPassword } from "@/server/modules/users/passwords";
import { sessionCookie, useSessionSecret } from "@/test/csv-upload-request";
import { useTestDatabase } from "@/test/db";
import { PROXY_HOSTNAME as HOSTNAME, type NginxProxy, type ProxyRequest, reserveProxyPorts, startNginxProxy } from "@/test/nginx-proxy";

// deploy/nginx/groundwork.conf as shipped (src/test/nginx-proxy.ts), in front of the app's own
// edge (src/test/serve-dashboard-edge.ts: the node:http server `npm start` uses,
// GROUNDWORK_TRUSTED_PROXIES=127.0.0.1), with a sign-in route that calls what next-auth's
// Credentials provider calls. e2e/api/nginx-proxy.spec.ts puts the same site in front of the
// real `npm start`, next-auth included.
const root = path.resolve(import.meta.dirname, "../..");
const database = useTestDatabase();
const processes: ChildProcess[] = [];
let proxy: NginxProxy;
let httpsPort = 0;
let httpPort = 0;

async function startApp(env: Record<string, string>): Promise<number> {
  const child = spawn(path.join(root, "node_modules", ".bin", "tsx"), ["src/test/serve-dashboard-edge.ts"], {
    cwd: root,
    env: { ...process.env, ...env, LOG_LEVEL: "silent", NODE_ENV: "test", REDIS_URL: "" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  processes.push(child);
  let output = "";
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the app did not start: ${output}`)), 60_000);
    child.stdout!.on("data", (chunk: Buffer) => {
      const match = /listening (\d+)/.exec(chunk.toString());
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    });
    child.once("exit", (code) => reject(new Error(`the app exited with ${code}: ${output}`)));
  });
}

/** One request to the proxy (TLS unless `tls: false`); `port` says which of its two ports. */
const request = (options: ProxyRequest & { port: number }) => proxy.request({ ...options, tls: options.port === httpPort ? false : options.tls });
const origin = () => proxy.origin;

beforeAll(async () => {
  useSessionSecret();
  const ports = await reserveProxyPorts();
  [httpsPort, httpPort] = [ports.httpsPort, ports.httpPort];
  const appPort = await startApp({
    DATABASE_URL: database.url,
    NEXTAUTH_SECRET: process.env.NEXTAUTH_SECRET!,
    GROUNDWORK_TRUSTED_PROXIES: "127.0.0.1",
    PUBLIC_URL: ports.origin,
  });
  proxy = await startNginxProxy({ appPort, ports });
}, 120_000);

afterAll(async () => {
  await proxy?.stop();
  await Promise.all(
    processes.map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          child.once("exit", () => resolve());
          child.kill("SIGTERM");
          setTimeout(() => child.kill("SIGKILL"), 5_000).unref();
        }),
    ),
  );
});

describe("deploy/nginx/groundwork.conf in front of the app", () => {
  it("serves HTTPS with one HSTS header, and sends plain HTTP there", async () => {
    const health = await request({ port: httpsPort, path: "/api/v1/health" });
    expect(health.status).toBe(200);
    const version = (JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as { version: string }).version;
    expect((JSON.parse(health.body.toString()) as { data: { version: string } }).data.version).toBe(version);
    const hsts = health.rawHeaders.filter((_, i) => i % 2 === 0 && health.rawHeaders[i]!.toLowerCase() === "strict-transport-security");
    expect(hsts).toHaveLength(1);
    expect(health.headers["strict-transport-security"]).toBe("max-age=31536000; includeSubDomains");

    const plain = await request({ port: httpPort, path: "/api/v1/health", tls: false, headers: { host: HOSTNAME } });
    expect(plain.status).toBe(301);
    expect(plain.headers.location).toBe(`https://${HOSTNAME}/api/v1/health`);
  });

  it("gives two clients behind the proxy their own sign-in budgets, whatever X-Forwarded-For they send", async () => {
    const email = `owner-${Math.random()}@x.test`;
    await database.prisma.user.create({ data: { email, passwordHash: await hashPassword("right-password-1"), isInstanceOwner: true } });
    const signIn = (localAddress: string, password: string, forged?: string) =>
      request({
        port: httpsPort,
        path: "/test/sign-in",
        method: "POST",
        localAddress,
        headers: { "content-type": "application/json", ...(forged ? { "x-forwarded-for": forged } : {}) },
        body: [Buffer.from(JSON.stringify({ email, password }))],
      }).then((answer) => ({ status: answer.status, ...(JSON.parse(answer.body.toString()) as { ok: boolean; reason?: string }) }));

    // Client A guesses five times, each time claiming another address; its pair budget (5) is spent.
    for (let i = 1; i <= 5; i++) expect((await signIn("127.0.0.2", "wrong", `203.0.113.${i}`)).status).toBe(401);
    const locked = await signIn("127.0.0.2", "right-password-1");
    expect(locked).toMatchObject({ status: 401, ok: false, reason: "locked" });
    // Client B, behind the same proxy, is another address: its budget is whole.
    expect(await signIn("127.0.0.3", "right-password-1")).toMatchObject({ status: 200, ok: true });
    const budgets = await database.prisma.signInBudget.findMany({ where: { scope: "account_address" }, select: { key: true } });
    expect(budgets.map((budget) => budget.key)).toEqual([`${email}|127.0.0.2`]);
  });

  it("passes a 15 MB CSV upload through to the app, and streams a records export back", async () => {
    const db = database.prisma;
    const owner = await db.user.create({ data: { email: `csv-${Math.random()}@x.test`, passwordHash: "x", isInstanceOwner: true } });
    const organization = await db.organization.create({ data: { name: "Proxy" } });
    const source = await db.dataSource.create({ data: { organizationId: organization.id, name: "Big", kind: "csv", config: { keyColumn: "sku" } } });
    const cookie = await sessionCookie(db, owner.id);
    const rows = 90_000;
    const filler = "x".repeat(160);
    function* csv(): Generator<Buffer> {
      yield Buffer.from("sku,name\n");
      for (let start = 0; start < rows; start += 1000) {
        const lines: string[] = [];
        for (let i = start; i < start + 1000; i++) lines.push(`SKU-${i},${filler}\n`);
        yield Buffer.from(lines.join(""));
      }
    }
    // Sent as a browser sends a file: its length up front (the app refuses a body without one, 411).
    const body = Buffer.concat([...csv()]);
    const size = body.length;
    expect(size).toBeGreaterThan(15_000_000);
    expect(size).toBeLessThan(20 * 1024 * 1024);
    const upload = await request({
      port: httpsPort,
      path: `/api/dashboard/organizations/${organization.id}/sources/${source.id}/csv`,
      method: "POST",
      headers: { "content-type": "text/csv", "content-length": String(size), origin: origin(), cookie },
      body: [body],
    });
    expect(upload.status, upload.body.toString()).toBe(200);
    expect(await db.dataSourceRow.count({ where: { dataSourceId: source.id, deletedAt: null } })).toBe(rows);

    const form = await db.form.create({ data: { organizationId: organization.id, name: "Visits" } });
    const records = 20_000;
    await db.record.createMany({
      data: Array.from({ length: records }, (_, i) => ({
        organizationId: organization.id,
        formId: form.id,
        createdBy: "ana",
        fieldValues: { n: i, note: filler },
      })),
    });
    const exported = await request({ port: httpsPort, path: `/dashboard/organizations/${organization.id}/forms/${form.id}/export`, headers: { cookie } });
    expect(exported.status).toBe(200);
    expect(exported.headers["content-type"]).toMatch(/^text\/csv/);
    // Streamed: no length known in advance, sent in chunks through the proxy.
    expect(exported.headers["content-length"]).toBeUndefined();
    expect(exported.headers["transfer-encoding"]).toBe("chunked");
    expect(exported.body.toString().trimEnd().split("\r\n")).toHaveLength(records + 1);
  }, 240_000); // 90 000 rows in, 20 000 records out: 40 s on the loaded 2-core machine
});
