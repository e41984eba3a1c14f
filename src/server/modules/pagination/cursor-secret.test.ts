import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { resetEnvCache } from "@/env";
import { cursorSecret } from "./cursor-secret";

const dirs = [mkdtempSync(path.join(os.tmpdir(), "gw-cursor-a-")), mkdtempSync(path.join(os.tmpdir(), "gw-cursor-b-"))];
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

function secretWith(variables: Record<string, string>): Buffer {
  for (const [name, value] of Object.entries(variables)) vi.stubEnv(name, value);
  resetEnvCache();
  return cursorSecret();
}

describe("the cursor secret", () => {
  afterEach(() => {
    vi.unstubAllEnvs();
    resetEnvCache();
  });

  it("is read once per environment, and again from where a new one points (the CLI run in-process, D564)", () => {
    const a = secretWith({ GROUNDWORK_CURSOR_SECRET: "", GROUNDWORK_DATA_DIR: dirs[0]! });
    expect(cursorSecret()).toBe(a);
    const b = secretWith({ GROUNDWORK_CURSOR_SECRET: "", GROUNDWORK_DATA_DIR: dirs[1]! });
    expect(b).not.toEqual(a);
    expect(secretWith({ GROUNDWORK_CURSOR_SECRET: "", GROUNDWORK_DATA_DIR: dirs[0]! })).toEqual(a);
    expect(secretWith({ GROUNDWORK_CURSOR_SECRET: "s".repeat(32) }).toString("utf8")).toBe("s".repeat(32));
  });
});
