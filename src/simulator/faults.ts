import type { PrismaClient } from "@/server/db/types";

/**
 * Test-only seam: breaks the engine on purpose, so tests can show the simulator catching it. The
 * faults are BEFORE triggers installed in the test's own database, so no production code path
 * carries a switch, and every writer (whatever its SQL) is affected alike.
 *
 * - tombstone-keeps-updated-at: a row turned into a tombstone keeps its old updated_at (spec 3.3
 *   says it is bumped), so a delta never tells devices of the removal.
 * - pass-stamped-in-the-past: every other writing transaction stamps its rows 2 s earlier than the
 *   lock gave it, below what readers may already have seen as their high-water mark.
 */
export type EngineFault = "tombstone-keeps-updated-at" | "pass-stamped-in-the-past";

const BODY: Record<EngineFault, string> = {
  "tombstone-keeps-updated-at": `
    IF OLD.deleted_at IS NULL AND NEW.deleted_at IS NOT NULL THEN NEW.updated_at := OLD.updated_at; END IF;
    RETURN NEW;`,
  "pass-stamped-in-the-past": `
    IF txid_current() % 2 = 1 THEN NEW.updated_at := NEW.updated_at - interval '2 seconds'; END IF;
    RETURN NEW;`,
};

export async function injectFault(db: PrismaClient, fault: EngineFault): Promise<void> {
  await clearFaults(db);
  await db.$executeRawUnsafe(`CREATE FUNCTION simulator_fault() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN ${BODY[fault]} END $$`);
  await db.$executeRawUnsafe("CREATE TRIGGER simulator_fault BEFORE INSERT OR UPDATE ON data_source_rows FOR EACH ROW EXECUTE FUNCTION simulator_fault()");
}

export async function clearFaults(db: PrismaClient): Promise<void> {
  await db.$executeRawUnsafe("DROP TRIGGER IF EXISTS simulator_fault ON data_source_rows");
  await db.$executeRawUnsafe("DROP FUNCTION IF EXISTS simulator_fault()");
}
