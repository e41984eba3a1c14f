// `npm run lint:migrations`: squawk (squawk-cli, pinned) over every prisma/migrations/*/migration.sql,
// a step of `npm test` (D393). Each file is checked as the runner runs it: in a transaction, or
// outside one when it starts with `-- groundwork:no-transaction`. Rules a file does not follow are
// excluded for that file only, each with its reason, in prisma/squawk-exclusions.json (the SQL of
// an applied migration cannot carry `-- squawk-ignore` comments: its checksum is recorded); an
// exclusion without a reason, or one that excludes nothing, fails the check too.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { isNoTransaction } from "../src/server/db/migration-sql";
import { DEFAULT_MIGRATIONS_DIR, readMigrations } from "../src/server/db/migrations";

const root = path.resolve(import.meta.dirname, "..");
const SQUAWK = path.join(root, "node_modules", ".bin", "squawk");
const EXCLUSIONS_FILE = path.join(root, "prisma", "squawk-exclusions.json");

interface Violation {
  file: string;
  line: number;
  rule_name: string;
  message: string;
}

/** The rules .squawk.toml excludes everywhere: an --exclude on the command line replaces them, so they are repeated. */
function globallyExcluded(): string[] {
  const config = readFileSync(path.join(root, ".squawk.toml"), "utf8").replace(/#[^\n]*/g, "");
  const list = /excluded_rules\s*=\s*\[([^\]]*)\]/.exec(config)?.[1] ?? "";
  return [...list.matchAll(/"([^"]+)"/g)].map((match) => match[1]!);
}

function squawk(file: string, transactional: boolean, fileRules: string[]): Violation[] {
  const exclude = [...globallyExcluded(), ...fileRules];
  const args = ["--config", path.join(root, ".squawk.toml"), "--reporter=json", transactional ? "--assume-in-transaction" : "--no-assume-in-transaction"];
  if (exclude.length > 0) args.push(`--exclude=${exclude.join(",")}`);
  let output: string;
  try {
    output = execFileSync(SQUAWK, [...args, file], { cwd: root, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] });
  } catch (error) {
    // squawk exits 1 when it found something; the report is on stdout either way.
    output = String((error as { stdout?: string }).stdout ?? "");
    if (output.trim() === "") throw error;
  }
  return JSON.parse(output.trim() || "[]") as Violation[];
}

async function main(): Promise<void> {
  const exclusions = JSON.parse(readFileSync(EXCLUSIONS_FILE, "utf8")) as Record<string, Record<string, string> | string>;
  const migrations = await readMigrations(path.join(root, DEFAULT_MIGRATIONS_DIR));
  const problems: string[] = [];
  let errors = 0;
  let excluded = 0;
  for (const name of Object.keys(exclusions)) {
    if (name !== "$comment" && !migrations.some((migration) => migration.name === name))
      problems.push(`${name}: excluded rules for a migration that does not exist`);
  }
  for (const migration of migrations) {
    const file = path.join(DEFAULT_MIGRATIONS_DIR, migration.name, "migration.sql");
    const own = exclusions[migration.name];
    const rules = typeof own === "object" ? own : {};
    const transactional = !isNoTransaction(migration.sql);
    for (const [rule, reason] of Object.entries(rules)) {
      if (reason.trim().length < 20) problems.push(`${migration.name}: the exclusion of ${rule} needs its reason`);
    }
    const found = squawk(file, transactional, Object.keys(rules));
    for (const violation of found) {
      problems.push(`${file}:${violation.line + 1}: ${violation.rule_name}: ${violation.message}`);
    }
    errors += found.length;
    if (Object.keys(rules).length > 0) {
      const unfiltered = new Set(squawk(file, transactional, []).map((violation) => violation.rule_name));
      for (const rule of Object.keys(rules)) {
        if (!unfiltered.has(rule)) problems.push(`${migration.name}: ${rule} is excluded but squawk finds nothing of it there; remove the exclusion`);
        else excluded += 1;
      }
    }
  }
  for (const problem of problems) process.stderr.write(`${problem}\n`);
  process.stdout.write(
    `squawk: ${migrations.length} migrations, ${errors} error${errors === 1 ? "" : "s"} ` +
      `(${excluded} rule${excluded === 1 ? "" : "s"} excluded in ${Object.keys(exclusions).filter((key) => key !== "$comment").length} files, each with its reason)\n`,
  );
  if (problems.length > 0) process.exitCode = 1;
}

await main();
