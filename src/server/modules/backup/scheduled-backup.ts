import fs from "node:fs/promises";
import path from "node:path";
import type { Env } from "@/env";
import type { PrismaClient } from "@/server/db/types";
import { recordAuditEvent } from "../audit/record-audit-event";
import { createBackup, type BackupSummary } from "./create-backup";
import { collectSecrets } from "./secrets-envelope";

export const BACKUP_TASK = "backup_daily";
const ARCHIVE_PATTERN = /^groundwork-backup-\d{8}T\d{6}Z\.gwbackup$/;

/** `groundwork-backup-20261201T223000Z.gwbackup`: sorts by time, so rotation is a sort. */
export function defaultArchiveName(at: Date): string {
  return `groundwork-backup-${at
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d{3}/, "")}.gwbackup`;
}

export function backupAuditMetadata(summary: BackupSummary): Record<string, string | number | boolean | null> {
  return {
    file: summary.file,
    bytes: summary.bytes,
    tables: summary.tables,
    rows: summary.rows,
    migration: summary.migration,
    without_request_log: summary.withoutRequestLog,
    duration_ms: summary.durationMs,
  };
}

export type BackupSettings = Pick<
  Env,
  | "GROUNDWORK_BACKUP_DIR"
  | "GROUNDWORK_BACKUP_KEEP"
  | "GROUNDWORK_BACKUP_PASSPHRASE"
  | "GROUNDWORK_ENCRYPTION_KEY"
  | "GROUNDWORK_CURSOR_SECRET"
  | "NEXTAUTH_SECRET"
>;

/** Off unless GROUNDWORK_BACKUP_DIR is set; then a passphrase is required (the archive carries the secrets). */
export function scheduledBackupsEnabled(settings: BackupSettings): boolean {
  if (settings.GROUNDWORK_BACKUP_DIR === undefined) return false;
  if (settings.GROUNDWORK_BACKUP_PASSPHRASE === undefined) {
    throw new Error(
      "GROUNDWORK_BACKUP_DIR is set but GROUNDWORK_BACKUP_PASSPHRASE is not: scheduled backups need the passphrase that seals the instance's secrets",
    );
  }
  return true;
}

/**
 * One scheduled run (D386): an archive in GROUNDWORK_BACKUP_DIR, then the oldest beyond
 * GROUNDWORK_BACKUP_KEEP removed. Success and failure both go to the audit log (system actor),
 * which is also what /metrics and the backup alert read, so any process sees the same answer.
 */
export async function runScheduledBackup(
  db: PrismaClient,
  options: { databaseUrl: string; dataDir: string; settings: BackupSettings; now?: Date },
): Promise<{ summary: BackupSummary; removed: string[] }> {
  const { settings } = options;
  const dir = path.resolve(settings.GROUNDWORK_BACKUP_DIR ?? "");
  const to = path.join(dir, defaultArchiveName(options.now ?? new Date()));
  try {
    await fs.mkdir(dir, { recursive: true });
    const summary = await createBackup({
      databaseUrl: options.databaseUrl,
      to,
      passphrase: settings.GROUNDWORK_BACKUP_PASSPHRASE ?? "",
      secrets: collectSecrets(options.dataDir, settings),
    });
    const removed = await rotate(dir, settings.GROUNDWORK_BACKUP_KEEP);
    await recordAuditEvent(db, {
      action: "backup.created",
      actor: { type: "system" },
      target: { type: "backup", id: path.basename(to) },
      metadata: { ...backupAuditMetadata(summary), scheduled: true, removed: removed.length },
    });
    return { summary, removed };
  } catch (error) {
    await recordAuditEvent(db, {
      action: "backup.failed",
      actor: { type: "system" },
      target: { type: "backup", id: path.basename(to) },
      metadata: { scheduled: true, error: (error as Error).message.slice(0, 500) },
    }).catch(() => undefined);
    throw error;
  }
}

async function rotate(dir: string, keep: number): Promise<string[]> {
  const archives = (await fs.readdir(dir)).filter((name) => ARCHIVE_PATTERN.test(name)).sort();
  const removed = archives.slice(0, Math.max(0, archives.length - keep));
  for (const name of removed) await fs.rm(path.join(dir, name), { force: true });
  return removed;
}
