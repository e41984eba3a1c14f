import { randomBytes } from "node:crypto";
import { link, mkdir, readFile, unlink, writeFile } from "node:fs/promises";
import path from "node:path";

export const AUTH_SECRET_FILE = "nextauth.secret";

/**
 * The key that signs and encrypts dashboard sessions (D66): NEXTAUTH_SECRET when set, else
 * `<dataDir>/nextauth.secret`, generated once (mode 0600) and reused, so sessions survive a
 * restart and no two installations share a secret. Never a constant in the code.
 */
export async function loadAuthSecret(dataDir: string, fromEnv: string | undefined): Promise<string> {
  if (fromEnv !== undefined) {
    if (fromEnv.length < 32) throw new Error("NEXTAUTH_SECRET must be at least 32 characters (e.g. `openssl rand -base64 32`).");
    return fromEnv;
  }
  const file = path.join(dataDir, AUTH_SECRET_FILE);
  const existing = await readSecret(file);
  if (existing) return existing;
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  // NOTE: written aside and hard-linked into place: concurrent starts end up with one secret.
  const temporary = `${file}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
  await writeFile(temporary, `${randomBytes(32).toString("base64url")}\n`, { mode: 0o600, flag: "wx" });
  try {
    await link(temporary, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  } finally {
    await unlink(temporary);
  }
  const created = await readSecret(file);
  if (!created) throw new Error(`could not create ${file}`);
  return created;
}

async function readSecret(file: string): Promise<string | null> {
  try {
    const text = (await readFile(file, "utf8")).trim();
    return text === "" ? null : text;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
}
