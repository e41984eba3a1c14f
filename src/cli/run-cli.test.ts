import os from "node:os";
import path from "node:path";
import { Readable, Writable } from "node:stream";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { resetEnvCache } from "@/env";
import { alertOnSourceState } from "@/server/modules/alerts/note-source-state";
import { runCli } from "./run-cli";

const unsubscribe = vi.fn();
vi.mock("@/server/modules/alerts/note-source-state", () => ({ alertOnSourceState: vi.fn(() => unsubscribe) }));

/** runCli as the tests' in-process runner calls it: captured streams, `stdin` piped in or a terminal. */
async function run(args: string[], stdin: string | "tty" = "") {
  const out: string[] = [];
  const err: string[] = [];
  const sink = (into: string[]) => new Writable({ write: (chunk: Buffer, _encoding, done) => done(void into.push(chunk.toString("utf8"))) });
  const input = Object.assign(Readable.from(stdin === "tty" ? [] : [stdin]), { isTTY: stdin === "tty" });
  const code = await runCli(args, { stdout: sink(out), stderr: sink(err), stdin: input });
  return { code, stdout: out.join(""), stderr: err.join("") };
}

// Commands that need no database: what decides the exit code and the error line, in this process.
describe("runCli", () => {
  beforeEach(() => {
    vi.stubEnv("GROUNDWORK_BACKUP_PASSPHRASE", "");
    resetEnvCache();
  });
  afterEach(() => {
    vi.unstubAllEnvs();
    resetEnvCache();
  });

  it("prints the usage: exit 0 when asked for, 2 when no command was given", async () => {
    const help = await run(["help"]);
    expect(help).toMatchObject({ code: 0, stderr: "" });
    expect(help.stdout).toMatch(/^Usage: npm run -s cli -- <command> \[options\] \[--json\]\n/);
    expect(help.stdout).toContain("backup verify FILE");
    expect(await run([])).toMatchObject({ code: 2, stdout: help.stdout, stderr: "" });
  });

  it("refuses usage in one line with exit 2, before reading stdin", async () => {
    expect(await run(["nope"])).toEqual({ code: 2, stdout: "", stderr: 'error: unknown command "nope"; run "npm run cli -- help"\n' });
    expect(await run(["backup", "verify"])).toEqual({ code: 2, stdout: "", stderr: "error: missing FILE\n" });
    expect(await run(["backup", "verify", "x.gwbackup"], "tty")).toEqual({
      code: 2,
      stdout: "",
      stderr: "error: set GROUNDWORK_BACKUP_PASSPHRASE or pipe the passphrase on standard input\n",
    });
    expect((await run(["backup", "verify", "x.gwbackup"], "short\n")).stderr).toMatch(/^error: the backup passphrase must be at least \d+ characters\n$/);
  });

  it("reads the passphrase from its stdin; any other failure is one line (the first of its message) with exit 1", async () => {
    const missing = path.join(os.tmpdir(), `gw-no-such-${process.pid}.gwbackup`);
    const result = await run(["backup", "verify", missing], "correct horse battery staple\nignored second line\n");
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr).toMatch(/^error: [^\n]*\n$/);
    expect(result.stderr).toContain(missing);
  });

  it("subscribes alerts to the sync pass for the run alone, failed runs included", async () => {
    vi.mocked(alertOnSourceState).mockClear();
    unsubscribe.mockClear();
    await run(["help"]);
    await run(["nope"]);
    expect(vi.mocked(alertOnSourceState)).toHaveBeenCalledTimes(2);
    expect(unsubscribe).toHaveBeenCalledTimes(2);
  });
});
