import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";

const run = promisify(execFile);
const dataDir = mkdtempSync(path.join(os.tmpdir(), "gw-prod-secrets-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

/** An entry point as systemd starts it in production, on a managed database, with no secret set. */
async function start(entry: string): Promise<{ code: number; stderr: string }> {
  const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: "production", GROUNDWORK_DATA_DIR: dataDir, LOG_LEVEL: "silent" };
  // An address nothing listens on: the refusal comes before any connection.
  env.DATABASE_URL = "postgres://groundwork@127.0.0.1:1/groundwork";
  for (const name of ["GROUNDWORK_ENCRYPTION_KEY", "GROUNDWORK_CURSOR_SECRET", "NEXTAUTH_SECRET", "GROUNDWORK_ALLOW_GENERATED_SECRETS"]) delete env[name];
  try {
    await run(process.execPath, ["--import", "tsx", entry], { env, timeout: 60_000 });
    return { code: 0, stderr: "" };
  } catch (error) {
    const failed = error as { code: number; stderr: string };
    return { code: failed.code, stderr: failed.stderr };
  }
}

describe("a production start on an external database without its secrets (D395)", () => {
  it.each([
    [
      "npm start",
      "src/server/process/start-server.ts",
      "Groundwork failed to start",
      "GROUNDWORK_ENCRYPTION_KEY, GROUNDWORK_CURSOR_SECRET, NEXTAUTH_SECRET are not set",
    ],
    ["npm run worker", "src/worker/main.ts", "The worker failed to start", "GROUNDWORK_ENCRYPTION_KEY is not set"],
  ])("%s refuses, naming the variables, and generates nothing", async (_name, entry, prefix, named) => {
    const { code, stderr } = await start(entry);
    expect(code).toBe(1);
    expect(stderr).toContain(`${prefix}: NODE_ENV=production with an external DATABASE_URL`);
    expect(stderr).toContain(`but ${named}`);
    expect(existsSync(dataDir) ? readdirSync(dataDir) : []).toEqual([]);
  });
});
