import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { chmod, mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { resetEnvCache } from "@/env";
import { loadEncryptionKey, parseEncryptionKey } from "./encryption-key";

const run = promisify(execFile);

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "gw-key-"));
  vi.stubEnv("GROUNDWORK_ENCRYPTION_KEY", "");
  resetEnvCache();
});
afterEach(async () => {
  vi.unstubAllEnvs();
  resetEnvCache();
  await rm(dir, { recursive: true, force: true });
});

describe("the encryption key", () => {
  it("is generated on first use into <dataDir>/encryption.key with mode 0600, then reused", async () => {
    const dataDir = path.join(dir, "nested", ".data");
    const key = await loadEncryptionKey(dataDir);
    expect(key).toHaveLength(32);
    const file = path.join(dataDir, "encryption.key");
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(Buffer.from((await readFile(file, "utf8")).trim(), "base64")).toEqual(key);
    expect(await loadEncryptionKey(dataDir)).toEqual(key);
  });

  it("processes starting together all end up with one key", async () => {
    const startAt = Date.now() + 1_500;
    // Separate processes (the server, its worker, a CLI): each imports, then waits for the shared moment.
    const script = `
      import { loadEncryptionKey } from ${JSON.stringify(path.join(import.meta.dirname, "encryption-key.ts"))};
      while (Date.now() < ${startAt});
      process.stdout.write((await loadEncryptionKey(${JSON.stringify(dir)})).toString("hex"));`;
    const children = Array.from({ length: 4 }, () =>
      run(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], { env: { ...process.env, GROUNDWORK_ENCRYPTION_KEY: "" } }),
    );
    const keys = (await Promise.all(children)).map((child) => child.stdout);
    expect(keys[0]).toMatch(/^[0-9a-f]{64}$/);
    expect(new Set(keys).size).toBe(1);
    expect(await loadEncryptionKey(dir)).toEqual(Buffer.from(keys[0]!, "hex"));
  }, 20_000);

  it("GROUNDWORK_ENCRYPTION_KEY wins over the file, as hex or base64", async () => {
    const key = randomBytes(32);
    vi.stubEnv("GROUNDWORK_ENCRYPTION_KEY", key.toString("hex"));
    resetEnvCache();
    expect(await loadEncryptionKey(dir)).toEqual(key);
    vi.stubEnv("GROUNDWORK_ENCRYPTION_KEY", key.toString("base64"));
    resetEnvCache();
    expect(await loadEncryptionKey(dir)).toEqual(key);
    await expect(stat(path.join(dir, "encryption.key"))).rejects.toMatchObject({ code: "ENOENT" });
  });

  it("a key of the wrong size is refused with a readable message", async () => {
    expect(() => parseEncryptionKey("c2hvcnQ=", "GROUNDWORK_ENCRYPTION_KEY")).toThrow(/GROUNDWORK_ENCRYPTION_KEY must be 32 bytes/);
    await writeFile(path.join(dir, "encryption.key"), "too short\n", { mode: 0o600 });
    await expect(loadEncryptionKey(dir)).rejects.toThrow(/encryption\.key must be 32 bytes/);
  });

  it("a key file other users can read fails loudly, naming the fix", async () => {
    await loadEncryptionKey(dir);
    const file = path.join(dir, "encryption.key");
    await chmod(file, 0o640);
    await expect(loadEncryptionKey(dir)).rejects.toThrow(/encryption\.key is accessible to other users \(mode 640\); restrict it: chmod 600/);
  });

  it("a damaged key is refused, never decoded into some other 32 bytes", async () => {
    const key = randomBytes(32).toString("base64");
    const damaged = `${key.slice(0, 10)}!${key.slice(11)}`;
    expect(() => parseEncryptionKey(damaged, "GROUNDWORK_ENCRYPTION_KEY")).toThrow(/must be 32 bytes/);
    expect(() => parseEncryptionKey(`${key.slice(0, 20)} ${key.slice(20)}`, "GROUNDWORK_ENCRYPTION_KEY")).toThrow(/must be 32 bytes/);
    expect(parseEncryptionKey(key, "k")).toEqual(Buffer.from(key, "base64"));
    expect(parseEncryptionKey(Buffer.from(key, "base64").toString("base64url"), "k")).toEqual(Buffer.from(key, "base64"));
  });
});
