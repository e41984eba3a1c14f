import type { Db } from "@/server/db/types";

// Kept apart from the backup code itself: /metrics and the alert tick read it, in the web process.

/** The last backup that succeeded and the last run's outcome, from the audit log. */
export async function backupStatus(db: Db): Promise<{ lastSuccessAt: Date | null; lastRun: { action: string; at: Date } | null }> {
  const [success, last] = await Promise.all([
    db.auditEvent.findFirst({ where: { action: "backup.created" }, orderBy: { createdAt: "desc" }, select: { createdAt: true } }),
    db.auditEvent.findFirst({
      where: { action: { in: ["backup.created", "backup.failed"] } },
      orderBy: { createdAt: "desc" },
      select: { createdAt: true, action: true },
    }),
  ]);
  return { lastSuccessAt: success?.createdAt ?? null, lastRun: last ? { action: last.action, at: last.createdAt } : null };
}
