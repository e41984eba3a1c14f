import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { useTestDatabase } from "@/test/db";

const run = promisify(execFile);
const database = useTestDatabase();

async function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, ["--import", "tsx", "src/cli/main.ts", ...args], {
      env: { ...process.env, DATABASE_URL: database.url, LOG_LEVEL: "silent" },
      timeout: 60_000,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

async function cliJson<T>(args: string[]): Promise<T> {
  const result = await cli([...args, "--json"]);
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as T;
}

describe("admin command line", () => {
  it("runs every command with valid JSON output, and never prints a token twice", async () => {
    const owner = await cliJson<{ id: string; email: string }>(["owner", "create", "--email", "Ops@Example.com", "--password", "correct horse battery"]);
    expect(owner.email).toBe("ops@example.com");

    const org = await cliJson<{ id: string }>(["org", "create", "--name", "Acme"]);
    const orgs = await cliJson<{ id: string; name: string }[]>(["org", "list"]);
    expect(orgs.map((o) => o.id)).toContain(org.id);

    const form = await cliJson<{ id: string }>(["form", "create", "--org", org.id, "--name", "Inspection"]);
    expect(form.id).toBeTruthy();

    const key = await cliJson<{ id: string; token: string; prefix: string; scopes: string[] }>([
      "key", "mint", "--name", "ci", "--scopes", "records:read,records:write", "--org", org.id, "--env", "test", "--rate-limit", "50",
    ]);
    expect(key.token).toMatch(/^gw_test_[A-Z0-9]{32}$/);
    expect(key.token.startsWith(key.prefix)).toBe(true);

    const plain = await cli(["key", "mint", "--name", "plain", "--scopes", "*:*", "--instance"]);
    expect(plain.code).toBe(0);
    expect(plain.stdout.trim()).toMatch(/^gw_live_[A-Z0-9]{32}$/);

    const list = await cli(["key", "list", "--org", org.id, "--json"]);
    const keys = JSON.parse(list.stdout) as { id: string; prefix: string; state: string }[];
    expect(keys.map((k) => k.id)).toEqual([key.id]);
    expect(list.stdout).not.toContain(key.token);

    const revoked = await cliJson<{ id: string; revoked_at: string }>(["key", "revoke", key.id]);
    expect(revoked.id).toBe(key.id);
    const after = await cliJson<{ state: string }[]>(["key", "list", "--org", org.id]);
    expect(after[0]?.state).toBe("revoked");
  }, 120_000);

  it("fails with one line and a non-zero exit", async () => {
    for (const args of [
      ["key", "mint", "--name", "x", "--scopes", "records:read"],
      ["key", "revoke", "no-such-key"],
      ["org", "create"],
      ["nope"],
      ["owner", "create", "--email", "not-an-email", "--password", "correct horse battery"],
    ]) {
      const result = await cli(args);
      expect(result.code, args.join(" ")).not.toBe(0);
      expect(result.stderr.trim().split("\n").filter((line) => !line.includes("nodedir"))).toHaveLength(1);
      expect(result.stderr).toMatch(/^error: /m);
    }
  }, 120_000);
});
