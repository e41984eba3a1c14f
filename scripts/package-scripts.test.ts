import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "..");
const scripts = (JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as { scripts: Record<string, string> }).scripts;

describe("package.json scripts", () => {
  it("point at entry points that exist", () => {
    const missing = Object.entries(scripts).flatMap(([name, command]) =>
      [...command.matchAll(/\b(?:tsx|bash|node)\s+(?:--[\w-]+\s+)*([\w./-]+\.(?:ts|sh|js|mjs))/g)]
        .map((match) => match[1]!)
        .filter((file) => !existsSync(path.join(root, file)))
        .map((file) => `${name}: ${file}`),
    );
    expect(missing).toEqual([]);
  });
});
