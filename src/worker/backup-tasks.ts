import type { CronItem, TaskList } from "graphile-worker";
import { env } from "@/env";
import type { PrismaClient } from "@/server/db/types";
import { BACKUP_TASK, runScheduledBackup, scheduledBackupsEnabled } from "@/server/modules/backup/scheduled-backup";

/**
 * Scheduled backups (D386): when GROUNDWORK_BACKUP_DIR is set, a daily `backup_daily` cron job
 * (03:30 UTC, one run across all workers: graphile-worker deduplicates cron ticks) writes an
 * archive there and keeps the newest GROUNDWORK_BACKUP_KEEP. Off otherwise: no task, no cron item.
 */
export function backupTasks(
  db: PrismaClient,
  options: { databaseUrl: string; dataDir: string; log: (message: string) => void },
): { tasks: TaskList; cron: CronItem[] } {
  if (!scheduledBackupsEnabled(env())) return { tasks: {}, cron: [] };
  return {
    tasks: {
      [BACKUP_TASK]: async () => {
        const { summary, removed } = await runScheduledBackup(db, { databaseUrl: options.databaseUrl, dataDir: options.dataDir, settings: env() });
        options.log(
          `backup written: ${summary.file} (${summary.bytes} bytes, ${summary.rows} rows in ${summary.durationMs} ms)${removed.length ? `; removed ${removed.join(", ")}` : ""}`,
        );
      },
    },
    cron: [{ task: BACKUP_TASK, match: "30 3 * * *", identifier: BACKUP_TASK, options: { backfillPeriod: 0, maxAttempts: 1 } }],
  };
}
