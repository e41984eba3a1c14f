import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { BUILD_LOG, BUILD_PROGRESS_LINE, ensureBuild } from "./ensure-build";

// Issue 44, item 10 (D490): the first start says in one line what it does; Next's noise is kept
// out of sight, and a failed build is shown in full.

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

/** A project root with no build yet and a stand-in for Next's CLI that behaves like `next build`. */
function project(script: string): { root: string; nextBin: string } {
  const root = mkdtempSync(path.join(tmpdir(), "ensure-build-"));
  roots.push(root);
  mkdirSync(path.join(root, "src"));
  writeFileSync(path.join(root, "src", "page.tsx"), "export {};\n");
  const nextBin = path.join(root, "fake-next.mjs");
  writeFileSync(nextBin, script);
  return { root, nextBin };
}

const NOISY_SUCCESS = `
import { mkdirSync, writeFileSync } from "node:fs";
process.stdout.write("\\u001b[35m▲ Next.js 16 (Turbopack)\\u001b[0m\\nAttention: Next.js now collects completely anonymous telemetry\\n");
for (let i = 0; i < 35; i++) process.stderr.write("⚠ Turbopack warning line " + i + "\\n");
process.stdout.write("Route (app)\\n┌ ƒ /dashboard\\n");
mkdirSync(".next", { recursive: true });
writeFileSync(".next/BUILD_ID", "x");
`;

function run(root: string, nextBin: string) {
  let printed = "";
  const logged: string[] = [];
  const outcome = (() => {
    try {
      ensureBuild(root, (line) => logged.push(line), { nextBin, write: (text) => (printed += text) });
      return null;
    } catch (error) {
      return error as Error;
    }
  })();
  return { printed, logged, outcome };
}

describe("ensureBuild", () => {
  it("prints one progress line, completed with the time taken, and none of Next's output", () => {
    const { root, nextBin } = project(NOISY_SUCCESS);
    const { printed, logged, outcome } = run(root, nextBin);
    expect(outcome).toBeNull();
    expect(logged).toEqual([]);
    expect(printed.split("\n").filter(Boolean)).toHaveLength(1);
    expect(printed.startsWith(`${BUILD_PROGRESS_LINE} done in `)).toBe(true);
    expect(printed).toMatch(/ done in \d+ s\.\n$/);
    expect(printed).not.toMatch(/Turbopack|telemetry|Route/);
    // What Next said is kept for whoever wants it.
    expect(readFileSync(path.join(root, BUILD_LOG), "utf8")).toContain("Turbopack warning line 34");
  });

  it("prints nothing at all when the build is current", () => {
    const { root, nextBin } = project(NOISY_SUCCESS);
    run(root, nextBin);
    // A build newer than every source: nothing to do, nothing said.
    writeFileSync(path.join(root, ".next", "BUILD_ID"), "y");
    const again = run(root, nextBin);
    expect(again.printed).toBe("");
    expect(again.outcome).toBeNull();
  });

  it("shows a failed build's output in full, then stops the start", () => {
    const errors = Array.from({ length: 60 }, (_, i) => `Error ${i}: Module not found: Can't resolve './missing-${i}'`);
    const { root, nextBin } = project(
      `process.stdout.write("Creating an optimized production build ...\\n"); process.stderr.write(${JSON.stringify(`${errors.join("\n")}\n`)}); process.exit(1);`,
    );
    const { printed, logged, outcome } = run(root, nextBin);
    expect(outcome?.message).toMatch(/next build failed \(exit 1\)/);
    expect(printed).toBe(`${BUILD_PROGRESS_LINE} failed. Next's output:\n`);
    const shown = logged.join("\n");
    expect(shown).toContain("Creating an optimized production build");
    for (const error of errors) expect(shown).toContain(error);
  });
});
