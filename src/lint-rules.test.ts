import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { ESLint } from "eslint";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// The layer rules of eslint.config.mjs (D535, D536), run through ESLint's own API on deliberate
// violations: each test fails if its rule is dropped or loosened.
const root = path.resolve(fileURLToPath(new URL("..", import.meta.url)));
let eslint: ESLint;
// The layer tests lint texts that import the whole server graph: import/no-cycle would walk all
// of it (tens of seconds) to prove nothing about the layer rules. The cycle tests keep it.
let layersOnly: ESLint;

beforeAll(() => {
  eslint = new ESLint({ cwd: root });
  layersOnly = new ESLint({ cwd: root, overrideConfig: { rules: { "import/no-cycle": "off" } } });
});

/** The rules a text breaks as if it were the file at `filePath`. */
async function ruleIdsOf(code: string, filePath: string): Promise<string[]> {
  const [result] = await layersOnly.lintText(code, { filePath: path.join(root, filePath) });
  return result!.messages.map((message) => message.ruleId ?? `fatal: ${message.message}`);
}

// The first lint loads the config, the parser and the module graph: seconds on a busy machine.
describe("layer rules", { timeout: 60_000 }, () => {
  it("refuse a domain module importing the api layer (a back-import), by alias or by a relative path", async () => {
    const viaAlias = 'import { createDashboardCaller } from "@/server/api/dashboard/root";\nexport const caller = createDashboardCaller;\n';
    expect(await ruleIdsOf(viaAlias, "src/server/modules/users/lint-probe.ts")).toContain("@typescript-eslint/no-restricted-imports");
    const viaRelative = 'import { createDashboardCaller } from "../../api/dashboard/root";\nexport const caller = createDashboardCaller;\n';
    expect(await ruleIdsOf(viaRelative, "src/server/modules/users/lint-probe.ts")).toContain("@typescript-eslint/no-restricted-imports");
  });

  it("refuse the worker importing the CLI", async () => {
    const code = 'import { main } from "@/cli/main";\nexport const run = main;\n';
    expect(await ruleIdsOf(code, "src/worker/lint-probe.ts")).toContain("@typescript-eslint/no-restricted-imports");
  });

  it("refuse a client component importing server code by value, and let a type import through", async () => {
    const byValue = '"use client";\nimport { getPrisma } from "@/server/db/client";\nexport const db = getPrisma;\n';
    expect(await ruleIdsOf(byValue, "src/components/dashboard/lint-probe.tsx")).toContain("@typescript-eslint/no-restricted-imports");
    const byType = '"use client";\nimport type { DashboardRouter } from "@/server/api/dashboard/root";\nexport type Router = DashboardRouter;\n';
    expect(await ruleIdsOf(byType, "src/components/dashboard/lint-probe.tsx")).toEqual([]);
  });

  it("refuse a page importing the database client", async () => {
    const code = 'import { getPrisma } from "@/server/db/client";\nexport default function Page() {\n  return String(getPrisma());\n}\n';
    expect(await ruleIdsOf(code, "app/lint-probe/page.tsx")).toContain("@typescript-eslint/no-restricted-imports");
  });

  it("refuse Prisma inside a procedure", async () => {
    const code = "export const find = (ctx: { db: { alertRule: { findUnique: () => null } } }) => ctx.db.alertRule.findUnique();\n";
    expect(await ruleIdsOf(code, "src/server/api/dashboard/alerts/lint-probe.ts")).toContain("no-restricted-syntax");
  });
});

describe("cycle rules", { timeout: 60_000 }, () => {
  // Two modules that import each other by value, written where the rules look (gitignored).
  const a = path.join(root, "src/server/modules/lint-probe-a/a.ts");
  const b = path.join(root, "src/server/modules/lint-probe-b/b.ts");
  const clean = () => {
    for (const file of [a, b]) rmSync(path.dirname(file), { recursive: true, force: true });
  };
  beforeAll(() => {
    clean();
    for (const file of [a, b]) mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(a, 'import { fromB } from "@/server/modules/lint-probe-b/b";\nexport const fromA = 1;\nexport const sum = () => fromA + fromB;\n');
    writeFileSync(b, 'import { fromA } from "../lint-probe-a/a";\nexport const fromB = 2;\nexport const twice = () => fromA * 2;\n');
  });
  afterAll(clean);

  it("report a value cycle between two files and between their modules", async () => {
    const results = await eslint.lintFiles([a, b]);
    for (const result of results) {
      const ids = result.messages.map((message) => message.ruleId);
      expect(ids, result.filePath).toContain("import/no-cycle");
      expect(ids, result.filePath).toContain("groundwork/no-module-cycle");
    }
    expect(results.map((result) => result.messages.find((m) => m.ruleId === "groundwork/no-module-cycle")?.message)).toEqual([
      expect.stringContaining("lint-probe-a → lint-probe-b → lint-probe-a"),
      expect.stringContaining("lint-probe-b → lint-probe-a → lint-probe-b"),
    ]);
  });

  it("let a type-only import close no cycle", async () => {
    writeFileSync(b, 'import type { fromA } from "../lint-probe-a/a";\nexport const fromB = 2;\nexport type A = typeof fromA;\n');
    const results = await eslint.lintFiles([a, b]);
    expect(results.flatMap((result) => result.messages.map((message) => message.ruleId))).toEqual([]);
  });
});
