-- Backup alert rules (issue 42, D388): "backup failed or older than 36 h", sent to an instance
-- channel. A new table (nothing existing is locked); each rule keeps the state it last announced.

-- CreateTable
CREATE TABLE "backup_alert_rules" (
    "id" TEXT NOT NULL,
    "channel_id" TEXT NOT NULL,
    "state" TEXT NOT NULL DEFAULT 'ok',
    "since" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "backup_alert_rules_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "backup_alert_rules_channel_id_idx" ON "backup_alert_rules"("channel_id");

-- AddForeignKey
ALTER TABLE "backup_alert_rules" ADD CONSTRAINT "backup_alert_rules_channel_id_fkey" FOREIGN KEY ("channel_id") REFERENCES "alert_channels"("id") ON DELETE CASCADE ON UPDATE CASCADE;
