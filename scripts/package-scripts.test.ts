import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "..");
const scripts = (JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as { scripts: Record<string, string> }).scripts;

describe("package.json scripts", () => {
  it("point at entry points that exist", () => {
    const entries = Object.entries(scripts).flatMap(([name, command]) =>
      [...command.matchAll(/\b(?:tsx|bash|node)\s+(?:--[\w-]+(?:=\S+)?\s+)*([\w./-]+\.(?:ts|sh|js|mjs))/g)].map((match) => ({ name, file: match[1]! })),
    );
    // The two commands of the quick start are among those checked (a flag such as
    // --max-semi-space-size=32 once hid `start` from the pattern).
    expect(entries.map(({ name }) => name)).toEqual(expect.arrayContaining(["start", "test", "bench"]));
    expect(entries.filter(({ file }) => !existsSync(path.join(root, file))).map(({ name, file }) => `${name}: ${file}`)).toEqual([]);
  });
});
