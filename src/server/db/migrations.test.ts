import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { checksumOf, readMigrations } from "./migrations";

let dir: string | undefined;
afterEach(async () => {
  if (dir) await fs.rm(dir, { recursive: true, force: true });
  dir = undefined;
});

async function layout(files: Record<string, string>): Promise<string> {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), "gw-read-migrations-"));
  for (const [file, content] of Object.entries(files)) {
    await fs.mkdir(path.dirname(path.join(dir, file)), { recursive: true });
    await fs.writeFile(path.join(dir, file), content);
  }
  return dir;
}

describe("readMigrations", () => {
  it("lists migration directories in name order, skipping the lock file, with Prisma's checksum", async () => {
    const root = await layout({
      "migration_lock.toml": 'provider = "postgresql"\n',
      "20250102000000_b/migration.sql": "SELECT 2;",
      "20250101000000_a/migration.sql": "SELECT 1;",
    });
    expect(await readMigrations(root)).toEqual([
      { name: "20250101000000_a", sql: "SELECT 1;", checksum: checksumOf("SELECT 1;"), transactional: true },
      { name: "20250102000000_b", sql: "SELECT 2;", checksum: checksumOf("SELECT 2;"), transactional: true },
    ]);
  });

  it("treats a missing directory as no migrations", async () => {
    expect(await readMigrations(path.join(os.tmpdir(), "gw-no-such-dir"))).toEqual([]);
  });

  it("refuses a migration directory without migration.sql", async () => {
    const root = await layout({ "20250101000000_a/notes.txt": "" });
    await expect(readMigrations(root)).rejects.toMatchObject({ code: "MISSING_FILE" });
  });
});

describe("checksumOf", () => {
  it("is the lowercase hex SHA-256 Prisma stores (zero-padded)", () => {
    expect(checksumOf("hello")).toBe("2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824");
  });
});
