import { chmod, mkdtemp, readFile, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { AUTH_SECRET_FILE, loadAuthSecret } from "./secret";

describe("session secret", () => {
  it("is generated once into the data dir (0600) and reused; two installations differ", async () => {
    const a = await mkdtemp(path.join(tmpdir(), "gw-secret-"));
    const b = await mkdtemp(path.join(tmpdir(), "gw-secret-"));
    // Processes creating it at the same moment: src/server/db/secret-file.test.ts.
    const first = await loadAuthSecret(a, undefined);
    expect(first.length).toBeGreaterThanOrEqual(40);
    expect(await loadAuthSecret(a, undefined)).toBe(first);
    expect((await readFile(path.join(a, AUTH_SECRET_FILE), "utf8")).trim()).toBe(first);
    expect((await stat(path.join(a, AUTH_SECRET_FILE))).mode & 0o777).toBe(0o600);
    expect(await loadAuthSecret(b, undefined)).not.toBe(first);
  });

  it("prefers NEXTAUTH_SECRET and refuses a short one", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "gw-secret-"));
    const secret = "x".repeat(40);
    expect(await loadAuthSecret(dir, secret)).toBe(secret);
    await expect(loadAuthSecret(dir, "short")).rejects.toThrow(/at least 32/);
  });

  it("refuses a secret file other users can read, like every secret file (D55)", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "gw-secret-"));
    await loadAuthSecret(dir, undefined);
    await chmod(path.join(dir, AUTH_SECRET_FILE), 0o640);
    await expect(loadAuthSecret(dir, undefined)).rejects.toThrow(/nextauth\.secret is accessible to other users \(mode 640\); restrict it: chmod 600/);
  });
});
