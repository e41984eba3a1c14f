import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// The front door cannot rot (issue 45): every repository path a guide names in backticks exists,
// and nothing in the repository points at files outside it, which no one who clones it has.

const root = path.resolve(import.meta.dirname, "..");

/** The guides whose backticked paths are checked. */
const GUIDES = ["ARCHITECTURE.md", "docs/api.md", "docs/style.md", "src/server/modules/data-sources/README.md"];

const FILE_EXTENSIONS = /\.(md|ts|tsx|mts|mjs|js|json|sql|toml|prisma|sh|css|yml|yaml|conf|service)$/;

/**
 * The backticked tokens of a markdown text that name a path: one word with a slash, or a file
 * name with a known extension. Placeholders (`<name>`, `*`), URL paths (`/api/v1`), commands
 * (with spaces), media types and dotted suffixes (`.types.ts`) are not paths.
 */
function pathTokens(markdown: string): string[] {
  const tokens = [...markdown.matchAll(/`([^`\n]+)`/g)].map((match) => match[1]!);
  return [...new Set(tokens)].filter(
    (token) =>
      !/[\s<>*{}()…]/.test(token) &&
      !token.startsWith("/") &&
      !token.startsWith(".") &&
      !token.includes("://") &&
      !/^(application|text|image|multipart)\//.test(token) &&
      (token.includes("/") || FILE_EXTENSIONS.test(token)),
  );
}

const SKIPPED_DIRS = new Set(["node_modules", ".git", ".next", ".data", ".build", "test-results", "playwright-report", "generated"]);

function fileNames(dir: string, into = new Set<string>()): Set<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (SKIPPED_DIRS.has(entry.name)) continue;
    if (entry.isDirectory()) fileNames(path.join(dir, entry.name), into);
    else into.add(entry.name);
  }
  return into;
}

/** A token names a path from the guide's folder or the repository root; a bare file name may be anywhere. */
function missing(guide: string, tokens: string[], names: Set<string>): string[] {
  const folder = path.dirname(path.join(root, guide));
  return tokens.filter((token) => {
    const clean = token.replace(/\/$/, "");
    if (existsSync(path.join(folder, clean)) || existsSync(path.join(root, clean))) return false;
    return clean.includes("/") || !names.has(clean);
  });
}

describe("the guides name only paths that exist", () => {
  it("reads paths and leaves placeholders, commands and URL paths alone", () => {
    const text =
      "`src/a.ts`, `app/api/v1/[...trpc]/route.ts`, `router.ts`, `src/x/<area>/`, `*.test.ts`, `/api/v1`, `npm run lint`, `.types.ts`, `data_sources:read`, `application/json`";
    expect(pathTokens(text)).toEqual(["src/a.ts", "app/api/v1/[...trpc]/route.ts", "router.ts"]);
  });

  it("flags a path that does not exist", () => {
    expect(missing("ARCHITECTURE.md", ["src/no-such-file.ts", "no-such-name.ts", "src/env.ts", "router.ts"], fileNames(path.join(root, "src")))).toEqual([
      "src/no-such-file.ts",
      "no-such-name.ts",
    ]);
  });

  const names = fileNames(root);
  for (const guide of GUIDES) {
    it(`${guide}: every backticked path exists`, () => {
      const text = readFileSync(path.join(root, guide), "utf8");
      const tokens = pathTokens(text);
      expect(tokens.length).toBeGreaterThan(0);
      expect(missing(guide, tokens, names), `${guide} names paths that do not exist`).toEqual([]);
    });
  }

  it("the README points newcomers at ARCHITECTURE.md before its long sections", () => {
    const readme = readFileSync(path.join(root, "README.md"), "utf8");
    const link = readme.indexOf("(ARCHITECTURE.md)");
    expect(link).toBeGreaterThan(0);
    expect(link).toBeLessThan(readme.indexOf("\n## Dashboard"));
  });
});

// Spelled in two parts so this file does not match itself.
const OUTSIDE_POINTERS = [".." + "/shared", "service-" + "spec.md", "STYLE " + "§"];

describe("nothing in the repository points outside it", () => {
  it("no tracked text file names the files beside the repository", () => {
    const files = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], { cwd: root, encoding: "utf8" })
      .split("\0")
      .filter((file) => file !== "" && existsSync(path.join(root, file)));
    expect(files.length).toBeGreaterThan(100);
    const found: string[] = [];
    for (const file of files) {
      const text = readFileSync(path.join(root, file));
      if (text.includes(0)) continue; // binary
      const content = text.toString("utf8");
      for (const pointer of OUTSIDE_POINTERS) if (content.includes(pointer)) found.push(`${file}: ${pointer}`);
    }
    expect(found).toEqual([]);
  });
});
