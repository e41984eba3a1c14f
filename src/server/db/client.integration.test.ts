import { execFileSync } from "node:child_process";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import type pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useTestDatabase } from "@/test/db";
import { createPingPool, createSharedPing, pingDatabase } from "./client";
import { startEmbeddedPostgres, type EmbeddedPostgres } from "./embedded";

describe("createPrismaClient (through the test harness)", () => {
  const db = useTestDatabase();

  it("talks to a migrated database of this file's own", async () => {
    const organization = await db.prisma.organization.create({ data: { name: "Acme" } });
    expect(await db.prisma.organization.findMany()).toEqual([organization]);
  });
});

// A server of its own: the test freezes it with SIGSTOP, which must not stall the shared one.
describe("pingDatabase", () => {
  const timeoutMs = 300;
  let dir: string;
  let server: EmbeddedPostgres;
  let pool: pg.Pool;
  // The postmaster and every backend: Postgres children leave the postmaster's process group.
  const freeze = (sig: "SIGSTOP" | "SIGCONT") => {
    const children = execFileSync("ps", ["-o", "pid=", "--ppid", String(server.pid)], { encoding: "utf8" });
    for (const pid of [server.pid, ...children.split("\n").filter(Boolean).map(Number)]) {
      try {
        process.kill(pid, sig);
      } catch {
        // a backend that exited meanwhile has nothing left to freeze
      }
    }
  };

  beforeAll(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), "gw-ping-"));
    await fs.chmod(dir, 0o755); // the server runs as the postgres user when we are root
    server = await startEmbeddedPostgres({ dataDir: path.join(dir, "pg") });
    pool = createPingPool(server.url);
  });
  afterAll(async () => {
    if (server) freeze("SIGCONT");
    await pool?.end();
    await server?.stop();
    await fs.rm(dir, { recursive: true, force: true });
  });

  async function timedPing() {
    const started = performance.now();
    const result = await pingDatabase(pool, timeoutMs);
    return { result, elapsed: performance.now() - started };
  }

  it("answers with the latency when the database is up", async () => {
    const { result } = await timedPing();
    expect(result).toMatchObject({ ok: true, latencyMs: expect.any(Number) });
  });

  it("shared: concurrent checks share one ping and one connection, up or frozen, each within the timeout", async () => {
    let connections = 0;
    pool.on("connect", () => connections++);
    let pings = 0;
    const shared = createSharedPing((ms) => {
      pings++;
      return pingDatabase(pool, ms);
    }, 100);
    const flood = () =>
      Promise.all(
        Array.from({ length: 20 }, async () => {
          const started = performance.now();
          return { result: await shared(timeoutMs), elapsed: performance.now() - started };
        }),
      );
    const up = await flood();
    expect(up.every(({ result }) => result.ok)).toBe(true);
    expect(pings).toBe(1);
    expect(connections).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 150)); // past the reuse window
    freeze("SIGSTOP");
    try {
      for (const { result, elapsed } of await flood()) {
        expect(result.ok).toBe(false);
        expect(elapsed).toBeLessThan(timeoutMs + 200);
      }
      expect(pings).toBe(2);
    } finally {
      freeze("SIGCONT");
    }
  });

  it("gives up within the timeout while the server is frozen, without exhausting its pool", async () => {
    freeze("SIGSTOP");
    try {
      // More pings than the pool has connections, some at once: each must still come back in time.
      const pings = [await timedPing(), ...(await Promise.all([timedPing(), timedPing(), timedPing()])), await timedPing(), await timedPing()];
      for (const { result, elapsed } of pings) {
        expect(result.ok).toBe(false);
        expect(elapsed).toBeLessThan(timeoutMs + 200);
      }
    } finally {
      freeze("SIGCONT");
    }
  });

  it("is ok again once the server continues", async () => {
    let result = await pingDatabase(pool, 2_000);
    for (let attempt = 0; !result.ok && attempt < 5; attempt += 1) result = await pingDatabase(pool, 2_000);
    expect(result.ok).toBe(true);
    expect(pool.totalCount).toBeLessThanOrEqual(2);
  });

  it("reports an unreachable server as a failure, not an exception", async () => {
    const nowhere = createPingPool("postgres://postgres:postgres@127.0.0.1:1/none");
    try {
      expect(await pingDatabase(nowhere, timeoutMs)).toMatchObject({ ok: false, reason: expect.any(String) });
    } finally {
      await nowhere.end();
    }
  });
});
