-- Every key a pass held back at the delete guardrail (issue 43, D465). A new table; the foreign key
-- takes a short lock on data_sources, so wait for it at most 5 s rather than queue behind a long pass.
SET lock_timeout = '5s';

-- CreateTable
CREATE TABLE "pass_held_deletions" (
    "data_source_id" TEXT NOT NULL,
    "external_id" TEXT NOT NULL,

    CONSTRAINT "pass_held_deletions_pkey" PRIMARY KEY ("data_source_id","external_id")
);

-- AddForeignKey
ALTER TABLE "pass_held_deletions" ADD CONSTRAINT "pass_held_deletions_data_source_id_fkey" FOREIGN KEY ("data_source_id") REFERENCES "data_sources"("id") ON DELETE CASCADE ON UPDATE CASCADE;
