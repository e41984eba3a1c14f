-- CreateEnum
CREATE TYPE "AlertChannelKind" AS ENUM ('email', 'chat_url');

-- CreateTable
CREATE TABLE "alert_channels" (
    "id" TEXT NOT NULL,
    "organization_id" TEXT,
    "name" TEXT NOT NULL,
    "kind" "AlertChannelKind" NOT NULL,
    "email_to" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "url_encrypted" TEXT,
    "url_hint" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "deleted_at" TIMESTAMPTZ(3),

    CONSTRAINT "alert_channels_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "alert_rules" (
    "id" TEXT NOT NULL,
    "organization_id" TEXT NOT NULL,
    "data_source_id" TEXT,
    "channel_id" TEXT NOT NULL,
    "remind_after_minutes" INTEGER,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "alert_rules_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "alert_source_states" (
    "data_source_id" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "since" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "alert_source_states_pkey" PRIMARY KEY ("data_source_id")
);

-- CreateTable
CREATE TABLE "alert_deliveries" (
    "id" TEXT NOT NULL,
    "channel_id" TEXT NOT NULL,
    "organization_id" TEXT,
    "data_source_id" TEXT,
    "kind" TEXT NOT NULL,
    "state" TEXT,
    "subject" TEXT NOT NULL,
    "body" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "last_error" TEXT,
    "digest_id" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "sent_at" TIMESTAMPTZ(3),

    CONSTRAINT "alert_deliveries_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "alert_channels_organization_id_created_at_idx" ON "alert_channels"("organization_id", "created_at");

-- CreateIndex
CREATE INDEX "alert_rules_organization_id_idx" ON "alert_rules"("organization_id");

-- CreateIndex
CREATE INDEX "alert_rules_channel_id_idx" ON "alert_rules"("channel_id");

-- CreateIndex
CREATE INDEX "alert_source_states_state_idx" ON "alert_source_states"("state");

-- CreateIndex
CREATE INDEX "alert_deliveries_channel_id_created_at_idx" ON "alert_deliveries"("channel_id", "created_at");

-- CreateIndex
CREATE INDEX "alert_deliveries_data_source_id_created_at_idx" ON "alert_deliveries"("data_source_id", "created_at");

-- CreateIndex
CREATE INDEX "alert_deliveries_status_idx" ON "alert_deliveries"("status");

-- AddForeignKey
ALTER TABLE "alert_channels" ADD CONSTRAINT "alert_channels_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "alert_rules" ADD CONSTRAINT "alert_rules_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "alert_rules" ADD CONSTRAINT "alert_rules_data_source_id_fkey" FOREIGN KEY ("data_source_id") REFERENCES "data_sources"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "alert_rules" ADD CONSTRAINT "alert_rules_channel_id_fkey" FOREIGN KEY ("channel_id") REFERENCES "alert_channels"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "alert_source_states" ADD CONSTRAINT "alert_source_states_data_source_id_fkey" FOREIGN KEY ("data_source_id") REFERENCES "data_sources"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "alert_deliveries" ADD CONSTRAINT "alert_deliveries_channel_id_fkey" FOREIGN KEY ("channel_id") REFERENCES "alert_channels"("id") ON DELETE CASCADE ON UPDATE CASCADE;
