import { spawn } from "node:child_process";
import { once } from "node:events";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { withClient } from "./admin";
import { startEmbeddedPostgres, type EmbeddedPostgres } from "./embedded";
import { LEGACY_PASSWORD, PASSWORD_FILE } from "./embedded-password";
import { isAlive } from "./postmaster";
import { relayToConsole } from "@/test/relay-output";

// A server of its own in a temporary directory: these tests kill and restart servers.
let dataDir: string;
const started: EmbeddedPostgres[] = [];
beforeAll(async () => {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), "gw-embedded-"));
  await fs.chmod(dir, 0o755); // the server runs as the postgres user when we are root
  dataDir = path.join(dir, "pg");
});
afterAll(async () => {
  for (const server of started.reverse()) await server.stop();
  await fs.rm(path.dirname(dataDir), { recursive: true, force: true });
});

async function start(): Promise<EmbeddedPostgres> {
  const server = await startEmbeddedPostgres({ dataDir });
  started.push(server);
  return server;
}

/** Starts a server from another Node process that writes a row, then waits to be killed. */
async function startInChildProcess(): Promise<{ child: ReturnType<typeof spawn>; postmaster: number }> {
  const embeddedModule = fileURLToPath(new URL("./embedded.ts", import.meta.url));
  const script = `
    const { startEmbeddedPostgres } = await import(${JSON.stringify(embeddedModule)});
    const { withClient } = await import(${JSON.stringify(fileURLToPath(new URL("./admin.ts", import.meta.url)))});
    const server = await startEmbeddedPostgres({ dataDir: ${JSON.stringify(dataDir)} });
    await withClient(server.url, (c) => c.query("CREATE TABLE IF NOT EXISTS kept (note text); INSERT INTO kept VALUES ('before the kill')"));
    console.log(JSON.stringify({ postmaster: server.pid }));
    setInterval(() => {}, 1000);`;
  const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  relayToConsole(child.stderr);
  const lines = createInterface({ input: child.stdout! });
  const exited = once(child, "exit").then(() => Promise.reject(new Error("the child process failed to start a server")));
  const [line] = (await Promise.race([once(lines, "line"), exited])) as [string];
  exited.catch(() => undefined);
  lines.close();
  return { child, postmaster: (JSON.parse(line) as { postmaster: number }).postmaster };
}

describe("startEmbeddedPostgres", () => {
  it("recovers from a run that was killed (SIGKILL) and keeps the data written before", async () => {
    const { child, postmaster } = await startInChildProcess();
    child.kill("SIGKILL");
    await once(child, "exit");
    expect(isAlive(postmaster)).toBe(true); // the orphaned server survives its owner

    const server = await start();
    expect(server.startedHere).toBe(true);
    expect(server.pid).not.toBe(postmaster);
    expect(isAlive(postmaster)).toBe(false);
    const { rows } = await withClient(server.url, (client) => client.query("SELECT note FROM kept"));
    expect(rows).toEqual([{ note: "before the kill" }]);
  });

  it("shares one server between processes: whoever leaves first leaves it running, the last one stops it", async () => {
    const first = started.at(-1)!;
    const second = await startEmbeddedPostgres({ dataDir });
    expect(second).toMatchObject({ startedHere: false, pid: first.pid, port: first.port });

    await first.stop();
    expect(isAlive(first.pid)).toBe(true);
    const { rows } = await withClient(second.url, (client) => client.query("SELECT count(*)::int AS n FROM kept"));
    expect(rows).toEqual([{ n: 1 }]);

    await second.stop();
    expect(isAlive(first.pid)).toBe(false);
  });

  it("stops cleanly and idempotently, and restarts on the same data", async () => {
    const server = await start();
    await Promise.all([server.stop(), server.stop()]);
    await server.stop();
    expect(isAlive(server.pid)).toBe(false);
    await expect(fs.access(path.join(dataDir, "postmaster.pid"))).rejects.toThrow();

    const again = await start();
    expect(again.pid).not.toBe(server.pid);
    const { rows } = await withClient(again.url, (client) => client.query("SELECT count(*)::int AS n FROM kept"));
    expect(rows).toEqual([{ n: 1 }]);
    await again.stop();
  });

  it("removes a stale postmaster.pid whose pid is dead, or is some other process, without touching that process", async () => {
    const bystander = spawn("sleep", ["60"]);
    try {
      for (const pid of [99_999_999, bystander.pid!]) {
        await fs.writeFile(path.join(dataDir, "postmaster.pid"), `${pid}\n${dataDir}\n0\n5432\n\n127.0.0.1\n0 0\nready\n`);
        const server = await start();
        expect(server.pid).not.toBe(pid);
        await server.stop();
      }
      expect(isAlive(bystander.pid!)).toBe(true);
    } finally {
      bystander.kill();
    }
  });

  it("lets two starters race on one directory: one starts the server, the other joins it", async () => {
    const pair = await Promise.all([startEmbeddedPostgres({ dataDir }), startEmbeddedPostgres({ dataDir })]);
    started.push(...pair);
    expect(pair.map((server) => server.startedHere).sort()).toEqual([false, true]);
    expect(pair[0].pid).toBe(pair[1].pid);
    await Promise.all(pair.map((server) => server.stop()));
    expect(isAlive(pair[0].pid)).toBe(false);
  });

  it("creates the requested database on first start", async () => {
    const server = await startEmbeddedPostgres({ dataDir, database: "groundwork_example" });
    started.push(server);
    const { rows } = await withClient(server.url, (client) => client.query("SELECT current_database() AS name"));
    expect(rows).toEqual([{ name: "groundwork_example" }]);
  });
});

describe("the embedded cluster's superuser password", () => {
  const passwordOf = (dir: string) => fs.readFile(path.join(dir, PASSWORD_FILE), "utf8").then((text) => text.trim());
  const connectsWith = async (server: EmbeddedPostgres, password: string) => {
    const url = new URL(server.adminUrl);
    url.password = password;
    return withClient(url.toString(), async () => true).catch((error: { code?: string }) => (error.code === "28P01" ? false : Promise.reject(error)));
  };

  it("is generated per cluster at initdb, kept in the data directory with mode 0600, and is not the old constant", async () => {
    const dir = path.join(path.dirname(dataDir), "own-password");
    const server = await startEmbeddedPostgres({ dataDir: dir });
    try {
      const file = path.join(dir, PASSWORD_FILE);
      expect((await fs.stat(file)).mode & 0o777).toBe(0o600);
      const password = await passwordOf(dir);
      expect(password).toMatch(/^[0-9a-f]{48}$/);
      expect(decodeURIComponent(new URL(server.adminUrl).password)).toBe(password);
      expect(await connectsWith(server, LEGACY_PASSWORD)).toBe(false);
      expect(await connectsWith(server, password)).toBe(true);
      // Another cluster, another password.
      expect(password).not.toBe(await passwordOf(dataDir));
    } finally {
      await server.stop();
    }
  });

  it("upgrades a cluster made with the constant password at its next start, keeping its data", async () => {
    const dir = path.join(path.dirname(dataDir), "legacy-password");
    const first = await startEmbeddedPostgres({ dataDir: dir });
    // Make it what older versions left behind: the constant password and no password file.
    await withClient(first.adminUrl, (client) =>
      client.query(`CREATE TABLE kept (note text); INSERT INTO kept VALUES ('legacy'); ALTER ROLE postgres PASSWORD '${LEGACY_PASSWORD}'`),
    );
    await first.stop();
    await fs.rm(path.join(dir, PASSWORD_FILE));

    const upgraded = await startEmbeddedPostgres({ dataDir: dir });
    try {
      const password = await passwordOf(dir);
      expect(password).not.toBe(LEGACY_PASSWORD);
      expect((await fs.stat(path.join(dir, PASSWORD_FILE))).mode & 0o777).toBe(0o600);
      expect(await connectsWith(upgraded, LEGACY_PASSWORD)).toBe(false);
      const { rows } = await withClient(upgraded.adminUrl, (client) => client.query("SELECT note FROM kept"));
      expect(rows).toEqual([{ note: "legacy" }]);
    } finally {
      await upgraded.stop();
    }
  });

  it("refuses to start when the password file is readable by other users, or malformed", async () => {
    const dir = path.join(path.dirname(dataDir), "legacy-password");
    const file = path.join(dir, PASSWORD_FILE);
    const password = await passwordOf(dir);
    await fs.chmod(file, 0o644);
    await expect(startEmbeddedPostgres({ dataDir: dir })).rejects.toThrow(/is accessible to other users \(mode 644\); restrict it: chmod 600/);
    await fs.chmod(file, 0o600);
    await fs.writeFile(file, "not a password\n");
    await expect(startEmbeddedPostgres({ dataDir: dir })).rejects.toThrow(/is malformed/);
    await fs.writeFile(file, `${password}\n`);
    const server = await startEmbeddedPostgres({ dataDir: dir });
    await server.stop();
  });
});
