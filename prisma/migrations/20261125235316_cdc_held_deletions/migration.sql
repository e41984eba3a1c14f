-- CreateTable
CREATE TABLE "cdc_held_deletions" (
    "data_source_id" TEXT NOT NULL,
    "external_id" TEXT NOT NULL,

    CONSTRAINT "cdc_held_deletions_pkey" PRIMARY KEY ("data_source_id","external_id")
);

-- AddForeignKey
ALTER TABLE "cdc_held_deletions" ADD CONSTRAINT "cdc_held_deletions_data_source_id_fkey" FOREIGN KEY ("data_source_id") REFERENCES "data_sources"("id") ON DELETE CASCADE ON UPDATE CASCADE;
