import { Agent, request } from "node:http";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { mintTestKey } from "@/test/api-client";
import { startApiProcess, type ApiProcess } from "@/test/api-process";
import { useTestDatabase } from "@/test/db";

const database = useTestDatabase();
let app: ApiProcess | undefined;
afterAll(() => app?.stop());

interface Answer {
  status: number;
  connection: string | undefined;
}

/** One GET on the given agent: its status, or the error code of a connection that failed. */
function get(agent: Agent, url: string, token?: string): Promise<Answer | { error: string }> {
  return new Promise((resolve) => {
    const req = request(url, { agent, headers: token ? { Authorization: `Bearer ${token}` } : {} }, (res) => {
      res.resume();
      res.on("end", () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection }));
      res.on("error", (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message }));
    });
    req.on("error", (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message }));
    req.end();
  });
}

describe("stopping the server under load (D178)", () => {
  it("SIGTERM during a 16-connection load: every request is answered or never accepted, health turns 503, exit 0", async () => {
    const org = await database.prisma.organization.create({ data: { name: "Drain" } });
    const { token } = await mintTestKey(database.prisma, { organizationId: org.id, scopes: ["*:*"], rateLimit: 1_000_000 });
    app = await startApiProcess({ DATABASE_URL: database.url, GROUNDWORK_SHUTDOWN_TIMEOUT_MS: "15000" });
    const url = `${app.baseUrl}/organizations/${org.id}/forms`;

    // A connection opened before the signal, to ask for health on afterwards.
    const healthAgent = new Agent({ keepAlive: true, maxSockets: 1 });
    expect(await get(healthAgent, `${app.baseUrl}/health`)).toMatchObject({ status: 200 });

    const agent = new Agent({ keepAlive: true, maxSockets: 16 });
    const tally = { answered: 0, answeredAfterSignal: 0, refused: 0, lost: [] as string[], statuses: new Map<number, number>() };
    let signalled = false;
    const loop = async () => {
      for (;;) {
        const answer = await get(agent, url, token);
        if ("error" in answer) {
          // ECONNREFUSED: the listener is closed, the request never reached the server.
          if (answer.error === "ECONNREFUSED") tally.refused++;
          else tally.lost.push(answer.error);
          return;
        }
        tally.answered++;
        if (signalled) tally.answeredAfterSignal++;
        tally.statuses.set(answer.status, (tally.statuses.get(answer.status) ?? 0) + 1);
      }
    };
    const loops = Array.from({ length: 16 }, loop);
    await new Promise((resolve) => setTimeout(resolve, 1_000));

    // Hold the forms table so requests pile up in flight, then stop the server under them.
    const blocker = new pg.Client({ connectionString: database.url });
    await blocker.connect();
    await blocker.query("BEGIN");
    await blocker.query("LOCK TABLE forms IN ACCESS EXCLUSIVE MODE");
    await new Promise((resolve) => setTimeout(resolve, 300));
    const answeredBefore = tally.answered;
    signalled = true;
    process.kill(app.pid, "SIGTERM");
    await new Promise((resolve) => setTimeout(resolve, 300));
    const health = await get(healthAgent, `${app.baseUrl}/health`);
    expect(health).toEqual({ status: 503, connection: "close" });
    await blocker.query("ROLLBACK");
    await blocker.end();

    await Promise.all(loops);
    const code = await app.exited;
    const output = app.output();
    app = undefined;
    console.info(
      `drain: ${answeredBefore} answered before SIGTERM, ${tally.answeredAfterSignal} after (in flight or on open connections), ${tally.refused} refused connections, ${tally.lost.length} lost`,
    );
    expect(tally.lost).toEqual([]);
    expect(tally.refused).toBe(16);
    expect(tally.answeredAfterSignal).toBeGreaterThan(0);
    expect(tally.answered).toBeGreaterThan(answeredBefore);
    expect([...tally.statuses.keys()].every((status) => status < 500 || status === 503)).toBe(true);
    expect(code).toBe(0);
    expect(output).toMatch(/SIGTERM received: stopping/);
    expect(output).toMatch(/health answers 503, no new connections/);
    expect(output).toMatch(/every in-flight request finished/);
    expect(output).toMatch(/stopped\./);
    agent.destroy();
    healthAgent.destroy();
  }, 90_000);
});
