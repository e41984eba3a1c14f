import { execFile } from "node:child_process";
import { writeFileSync } from "node:fs";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { readOrCreateSecretFile } from "./secret-file";

const run = promisify(execFile);
const SECRET_FILE_MODULE = path.join(import.meta.dirname, "secret-file.ts");

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "gw-secret-file-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const asText = { what: "test secret", parse: (text: string) => text.trim() };

describe("a secret file created by processes starting together", () => {
  it("a process that loses the race between its read and its link takes the winner's secret and leaves no temporary file", async () => {
    const file = path.join(dir, "test.secret");
    // The other process writes its secret after this one found no file, before this one links its own.
    const secret = readOrCreateSecretFile(file, {
      ...asText,
      generate: () => {
        writeFileSync(file, "the winner's secret\n", { mode: 0o600 });
        return "the loser's secret";
      },
    });
    expect(secret).toBe("the winner's secret");
    expect(await readFile(file, "utf8")).toBe("the winner's secret\n");
    expect(await readdir(dir)).toEqual(["test.secret"]);
  });

  it("separate processes released at the same moment all read one secret", async () => {
    const file = path.join(dir, "test.secret");
    const startAt = Date.now() + 1_500;
    // Each child imports first, then spins until the shared moment, so their reads and links overlap.
    const script = `
      import { randomBytes } from "node:crypto";
      import { readOrCreateSecretFile } from ${JSON.stringify(SECRET_FILE_MODULE)};
      while (Date.now() < ${startAt});
      const secret = readOrCreateSecretFile(${JSON.stringify(file)}, {
        what: "test secret",
        generate: () => randomBytes(16).toString("hex"),
        parse: (text) => text.trim(),
      });
      process.stdout.write(secret);`;
    const children = Array.from({ length: 6 }, () => run(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script]));
    const secrets = (await Promise.all(children)).map((child) => child.stdout);
    expect(secrets).toHaveLength(6);
    expect(secrets[0]).toMatch(/^[0-9a-f]{32}$/);
    expect(new Set(secrets).size).toBe(1);
    expect((await readFile(file, "utf8")).trim()).toBe(secrets[0]);
    expect(await readdir(dir)).toEqual(["test.secret"]);
  }, 20_000);

  it("a file that exists is read as it is, never replaced", async () => {
    const file = path.join(dir, "test.secret");
    await writeFile(file, "kept\n", { mode: 0o600 });
    expect(readOrCreateSecretFile(file, { ...asText, generate: () => "new" })).toBe("kept");
    expect(await readFile(file, "utf8")).toBe("kept\n");
  });
});
