import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { createPostgres15Database, startPostgres15 } from "@/test/postgres15";
import { verdict, type Table } from "./table";

/**
 * Backups that restore (issue 42): `backup create` of the bench's app database (its 1 M-row source
 * and everything else), then a restore of that archive into a fresh database on PostgreSQL 15
 * (the machine's, or one made with Debian's binaries), each in a process of its own: archive size,
 * time and peak RSS, with the memory bound the streaming design must hold whatever the size.
 */
export const BACKUP_RSS_BOUND_MB = 300;

interface ChildRun {
  seconds: number;
  peakRssMb: number;
  rows: number;
  bytes: number | null;
}

function runChild(operation: "create" | "restore", url: string, file: string): Promise<ChildRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", path.resolve("bench/backup-child.ts"), operation, url, file], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (err += chunk.toString()));
    child.once("exit", (code) =>
      code === 0
        ? resolve(JSON.parse(out.trim().split("\n").pop() ?? "") as ChildRun)
        : reject(new Error(`backup ${operation} exited ${code}: ${err.slice(-2000)}`)),
    );
  });
}

export async function runBackupBench(options: { appUrl: string; rows: number; table: Table; log: (line: string) => void }): Promise<void> {
  const { table, log } = options;
  const dir = mkdtempSync(path.join(os.tmpdir(), "gw-bench-backup-"));
  const file = path.join(dir, "bench.gwbackup");
  const pg15 = await startPostgres15();
  const target = await createPostgres15Database(pg15.adminUrl);
  try {
    log("backup: create...");
    const created = await runChild("create", options.appUrl, file);
    log(
      `backup: ${created.rows} rows, ${((created.bytes ?? 0) / 2 ** 20).toFixed(1)} MB in ${created.seconds.toFixed(1)} s, peak RSS ${created.peakRssMb.toFixed(0)} MB; restore into PostgreSQL 15...`,
    );
    const restored = await runChild("restore", target.url, file);
    log(`backup: restored ${restored.rows} rows in ${restored.seconds.toFixed(1)} s, peak RSS ${restored.peakRssMb.toFixed(0)} MB`);
    const label = `${options.rows.toLocaleString("en")}-row source`;
    table.add(
      `backup create (${label}): archive size`,
      `${((created.bytes ?? 0) / 2 ** 20).toFixed(1)} MB`,
      "",
      "",
      `${created.rows.toLocaleString("en")} rows in all tables`,
    );
    table.add(`backup create (${label}): time`, `${created.seconds.toFixed(1)} s`, "", "", "");
    table.add(
      `backup create (${label}): peak RSS`,
      `${created.peakRssMb.toFixed(0)} MB`,
      "",
      "",
      verdict(created.peakRssMb <= BACKUP_RSS_BOUND_MB, `≤ ${BACKUP_RSS_BOUND_MB} MB`),
    );
    table.add(`backup restore into PostgreSQL 15: time`, `${restored.seconds.toFixed(1)} s`, "", "", verdict(restored.rows === created.rows, "every row back"));
    table.add(
      `backup restore into PostgreSQL 15: peak RSS`,
      `${restored.peakRssMb.toFixed(0)} MB`,
      "",
      "",
      verdict(restored.peakRssMb <= BACKUP_RSS_BOUND_MB, `≤ ${BACKUP_RSS_BOUND_MB} MB`),
    );
  } finally {
    await target.drop().catch(() => undefined);
    await pg15.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
