import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import { withClient } from "@/server/db/admin";
import { useTestDatabase } from "@/test/db";

const run = promisify(execFile);
const database = useTestDatabase();
const FUTURE = "29991231000000_from_a_newer_release";

beforeAll(async () => {
  // What a newer release leaves behind: a finished migration this code does not have.
  await withClient(database.url, (client) =>
    client.query("INSERT INTO _prisma_migrations (id, checksum, migration_name, finished_at, applied_steps_count) VALUES ($1, $2, $3, now(), 1)", [
      randomUUID(),
      "0".repeat(64),
      FUTURE,
    ]),
  );
});

async function exitOf(entry: string): Promise<{ code: number; stderr: string }> {
  try {
    await run(process.execPath, ["--import", "tsx", entry], { env: { ...process.env, DATABASE_URL: database.url, LOG_LEVEL: "silent" }, timeout: 60_000 });
    return { code: 0, stderr: "" };
  } catch (error) {
    return error as { code: number; stderr: string };
  }
}

describe("a start against a database migrated by newer code (D394)", () => {
  it.each([
    ["npm run db:migrate", "src/cli/migrate.ts"],
    ["npm run worker", "src/worker/main.ts"],
  ])("%s refuses with a message naming the unknown migration", async (_name, entry) => {
    const { code, stderr } = await exitOf(entry);
    expect(code).toBe(1);
    expect(stderr).toContain(`The database was migrated by a newer version of Groundwork: ${FUTURE} is recorded in _prisma_migrations`);
  });
});
