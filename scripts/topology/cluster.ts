import { appendFileSync, chownSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { asServiceUser, freePort, portAnswers, run, startChild, waitFor, type Child } from "./processes";

// The data tier of the topology test, on loopback: a PostgreSQL 15 primary and a streaming replica
// made with Debian's binaries, PgBouncer in transaction mode in front of the primary, and Redis.

export const PG_BIN = "/usr/lib/postgresql/15/bin";

export interface DataTier {
  primaryUrl: string;
  replicaUrl: string;
  /** PgBouncer (transaction mode) in front of the primary. */
  pooledUrl: string;
  redisUrl: string;
  /** recovery_min_apply_delay on the replica (0 for none), applied by a reload. */
  setReplicaDelay(ms: number): Promise<void>;
  /** Stops the replica at once (an outage). */
  stopReplica(): Promise<void>;
  stop(): Promise<void>;
}

const asPostgres = (command: string, args: string[]) => run(...asServiceUser(command, args));

async function postgresUid(): Promise<[number, number]> {
  const out = await run("id", ["-u", "postgres"]).catch(() => "");
  const gid = await run("id", ["-g", "postgres"]).catch(() => "");
  return [Number(out.trim()) || 0, Number(gid.trim()) || 0];
}

export async function startDataTier(root: string, logDir: string, database: string): Promise<DataTier> {
  const [uid, gid] = process.getuid?.() === 0 ? await postgresUid() : [process.getuid?.() ?? 0, process.getgid?.() ?? 0];
  const own = (dir: string) => {
    mkdirSync(dir, { recursive: true });
    if (process.getuid?.() === 0) chownSync(dir, uid, gid);
    return dir;
  };
  own(root);
  const [primaryPort, replicaPort, bouncerPort, redisPort] = [await freePort(), await freePort(), await freePort(), await freePort()];
  const sockets = own(path.join(root, "sockets"));
  const primaryDir = path.join(root, "primary");
  const replicaDir = path.join(root, "replica");
  const children: Child[] = [];
  const pgCtl = (dir: string, action: "start" | "stop", extra: string[] = []) =>
    asPostgres(`${PG_BIN}/pg_ctl`, ["-D", dir, "-w", "-t", "60", "-l", path.join(root, `${path.basename(dir)}.log`), action, ...extra]);

  await asPostgres(`${PG_BIN}/initdb`, ["-D", primaryDir, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync"]);
  appendFileSync(
    path.join(primaryDir, "postgresql.conf"),
    [
      `port = ${primaryPort}`,
      "listen_addresses = '127.0.0.1'",
      `unix_socket_directories = '${sockets}'`,
      "max_connections = 300",
      "wal_level = logical",
      "max_wal_senders = 10",
      "max_replication_slots = 10",
      "hot_standby_feedback = on",
      // A throwaway cluster: durability costs nothing here.
      "fsync = off",
      "synchronous_commit = off",
      "full_page_writes = off",
      "shared_buffers = 128MB",
      "",
    ].join("\n"),
  );
  await pgCtl(primaryDir, "start");
  const primaryUrl = `postgres://postgres@127.0.0.1:${primaryPort}/${database}`;
  const admin = new pg.Client({ connectionString: `postgres://postgres@127.0.0.1:${primaryPort}/postgres` });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${database}`);
  await admin.query("CREATE DATABASE customer");
  await admin.end();

  // The replica: a base backup that writes its own standby settings (-R), on its own port.
  await asPostgres(`${PG_BIN}/pg_basebackup`, [
    "-h",
    "127.0.0.1",
    "-p",
    String(primaryPort),
    "-U",
    "postgres",
    "-D",
    replicaDir,
    "-R",
    "-X",
    "stream",
    "-c",
    "fast",
    "--no-sync",
  ]);
  appendFileSync(path.join(replicaDir, "postgresql.conf"), `port = ${replicaPort}\nhot_standby = on\n`);
  await pgCtl(replicaDir, "start");
  const replicaUrl = `postgres://postgres@127.0.0.1:${replicaPort}/${database}`;

  // PgBouncer, transaction mode. Single statements outside a transaction are bounded by the
  // server connection's statement_timeout (connect_query), what the app checks at start (D400).
  const bouncerDir = own(path.join(root, "pgbouncer"));
  writeFileSync(path.join(bouncerDir, "userlist.txt"), '"postgres" ""\n');
  writeFileSync(
    path.join(bouncerDir, "pgbouncer.ini"),
    [
      "[databases]",
      `* = host=127.0.0.1 port=${primaryPort} connect_query='SET statement_timeout = 10000'`,
      "[pgbouncer]",
      "listen_addr = 127.0.0.1",
      `listen_port = ${bouncerPort}`,
      "unix_socket_dir =",
      "auth_type = trust",
      `auth_file = ${path.join(bouncerDir, "userlist.txt")}`,
      "admin_users = postgres",
      "pool_mode = transaction",
      "max_client_conn = 1000",
      "default_pool_size = 40",
      "server_reset_query =",
      "",
    ].join("\n"),
  );
  if (process.getuid?.() === 0) chownSync(path.join(bouncerDir, "pgbouncer.ini"), uid, gid);
  children.push(startChild("pgbouncer", ...asServiceUser("/usr/sbin/pgbouncer", [path.join(bouncerDir, "pgbouncer.ini")]), { logDir }));
  await waitFor("pgbouncer", () => portAnswers(bouncerPort), 20_000);
  const pooledUrl = `postgres://postgres@127.0.0.1:${bouncerPort}/${database}`;

  children.push(startChild("redis", "redis-server", ["--port", String(redisPort), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], { logDir }));
  await waitFor("redis", () => portAnswers(redisPort), 20_000);

  const replicaAdmin = `postgres://postgres@127.0.0.1:${replicaPort}/postgres`;
  return {
    primaryUrl,
    replicaUrl,
    pooledUrl,
    redisUrl: `redis://127.0.0.1:${redisPort}`,
    async setReplicaDelay(ms) {
      const client = new pg.Client({ connectionString: replicaAdmin });
      await client.connect();
      try {
        await client.query(`ALTER SYSTEM SET recovery_min_apply_delay = '${Math.round(ms)}ms'`);
        await client.query("SELECT pg_reload_conf()");
      } finally {
        await client.end();
      }
    },
    stopReplica: () => pgCtl(replicaDir, "stop", ["-m", "immediate"]).then(() => undefined),
    async stop() {
      for (const child of children.reverse()) await child.stop(5_000);
      await pgCtl(replicaDir, "stop", ["-m", "immediate"]).catch(() => undefined);
      await pgCtl(primaryDir, "stop", ["-m", "immediate"]).catch(() => undefined);
    },
  };
}
