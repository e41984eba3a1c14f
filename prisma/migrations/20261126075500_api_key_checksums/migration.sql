-- Keys minted from now on end in a checksum (docs/decisions.md D333); the keys that exist do not.
-- AlterTable
ALTER TABLE "api_keys" ADD COLUMN "checksummed" BOOLEAN NOT NULL DEFAULT false;
