import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createMetricsHandler } from "@/server/metrics/metrics-route";
import { sampleValue } from "@/server/metrics/testing";
import { useTestDatabase } from "@/test/db";
import { backupStatus } from "./backup-status";
import { runScheduledBackup, scheduledBackupsEnabled, type BackupSettings } from "./scheduled-backup";
import { verifyArchive } from "./read-archive";

const db = useTestDatabase();
const dir = mkdtempSync(path.join(os.tmpdir(), "gw-scheduled-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const settings: BackupSettings = {
  GROUNDWORK_BACKUP_DIR: path.join(dir, "backups"),
  GROUNDWORK_BACKUP_KEEP: 2,
  GROUNDWORK_BACKUP_PASSPHRASE: "scheduled passphrase",
  GROUNDWORK_ENCRYPTION_KEY: "ab".repeat(32),
  GROUNDWORK_CURSOR_SECRET: undefined,
  NEXTAUTH_SECRET: undefined,
};
const TOKEN = "metrics-token-0123456789";
const scrape = createMetricsHandler({ db: () => db.prisma, token: () => TOKEN, backups: () => true });
const lastSuccessGauge = async () => {
  const res = await scrape(new Request("http://localhost/metrics", { headers: { authorization: `Bearer ${TOKEN}` } }));
  return sampleValue(await res.text(), "groundwork_backup_last_success_timestamp_seconds");
};

describe("scheduled backups", () => {
  it("are off unless GROUNDWORK_BACKUP_DIR is set, and need the passphrase when it is", () => {
    expect(scheduledBackupsEnabled({ ...settings, GROUNDWORK_BACKUP_DIR: undefined })).toBe(false);
    expect(() => scheduledBackupsEnabled({ ...settings, GROUNDWORK_BACKUP_PASSPHRASE: undefined })).toThrow(/GROUNDWORK_BACKUP_PASSPHRASE/);
    expect(scheduledBackupsEnabled(settings)).toBe(true);
  });

  it("write an archive a run, keep the newest GROUNDWORK_BACKUP_KEEP, and record each run for /metrics", async () => {
    expect(await lastSuccessGauge()).toBe(0);
    const days = ["2026-11-28T03:30:00Z", "2026-11-29T03:30:00Z", "2026-11-30T03:30:00Z"].map((day) => new Date(day));
    for (const now of days) await runScheduledBackup(db.prisma, { databaseUrl: db.url, dataDir: dir, settings, now });
    const kept = readdirSync(settings.GROUNDWORK_BACKUP_DIR ?? "").sort();
    expect(kept).toEqual(["groundwork-backup-20261129T033000Z.gwbackup", "groundwork-backup-20261130T033000Z.gwbackup"]);
    const newest = path.join(settings.GROUNDWORK_BACKUP_DIR ?? "", kept[1] ?? "");
    const verified = await verifyArchive(newest, "scheduled passphrase");
    const truncated = path.join(dir, "truncated.gwbackup");
    writeFileSync(truncated, readFileSync(newest).subarray(0, Math.floor(statSync(newest).size / 2)));
    await expect(verifyArchive(truncated, "scheduled passphrase")).rejects.toThrow(/cut short/);
    expect(Buffer.from(verified.openedSecrets.encryption_key?.base64 ?? "", "base64").toString("hex")).toBe("ab".repeat(32));
    const events = await db.prisma.auditEvent.findMany({ where: { action: "backup.created" }, orderBy: { createdAt: "asc" } });
    expect(events).toHaveLength(3);
    expect(events[2]).toMatchObject({
      actorType: "system",
      targetType: "backup",
      targetId: kept[1],
      metadata: expect.objectContaining({ scheduled: true, removed: 1 }),
    });
    const status = await backupStatus(db.prisma);
    expect(status.lastSuccessAt).toEqual(events[2]?.createdAt);
    expect(await lastSuccessGauge()).toBe((events[2]?.createdAt.getTime() ?? 0) / 1000);
  });

  it("record a failed run in the audit log, and the last success stays what it was", async () => {
    const before = await backupStatus(db.prisma);
    const notADirectory = path.join(dir, "a-file");
    writeFileSync(notADirectory, "x");
    await expect(
      runScheduledBackup(db.prisma, { databaseUrl: db.url, dataDir: dir, settings: { ...settings, GROUNDWORK_BACKUP_DIR: notADirectory } }),
    ).rejects.toThrow();
    const after = await backupStatus(db.prisma);
    expect(after.lastRun?.action).toBe("backup.failed");
    expect(after.lastSuccessAt).toEqual(before.lastSuccessAt);
  });
});
