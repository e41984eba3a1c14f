import path from "node:path";
import { createDatabase, databaseUrl, dropDatabase, randomDatabaseName } from "@/server/db/admin";
import { prepareDatabase } from "@/server/db/bootstrap";
import { createPrismaClient } from "@/server/db/client";
import { applyMigrations } from "@/server/db/migrations";
import { seed, type Fixture } from "./seed";

export interface SeededDatabases {
  appUrl: string;
  customerUrl: string;
  fixture: Fixture;
  /** Drops both databases and stops the server. */
  close(): Promise<void>;
}

/**
 * For the probes (cpu-per-request.ts, pipeline-profile.ts): the bench's embedded server, a fresh
 * migrated app database and a customer database, seeded with `rows` rows (seed.ts).
 */
export async function openSeededDatabases(prefix: string, rows: number): Promise<SeededDatabases> {
  const server = await prepareDatabase({ dataDir: path.resolve(".data/bench-postgres"), log: () => undefined });
  const adminUrl = databaseUrl(server.url, "postgres");
  const names = [randomDatabaseName(`${prefix}_app`), randomDatabaseName(`${prefix}_customer`)];
  const close = async () => {
    for (const name of names) await dropDatabase(adminUrl, name).catch(() => undefined);
    await server.stop();
  };
  try {
    for (const name of names) await createDatabase(adminUrl, name);
    const [appUrl, customerUrl] = names.map((name) => databaseUrl(adminUrl, name)) as [string, string];
    await applyMigrations(appUrl, { migrationsDir: path.resolve("prisma/migrations") });
    const db = createPrismaClient(appUrl);
    const fixture = await seed(db, appUrl, customerUrl, rows).finally(() => db.$disconnect());
    return { appUrl, customerUrl, fixture, close };
  } catch (error) {
    await close();
    throw error;
  }
}
