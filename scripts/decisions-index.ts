import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { duplicateIds, parseDecisions, withIndex } from "./decisions/index-block";

/**
 * `npm run docs:index`: rebuilds the index at the top of docs/decisions.md (D313). Run it after
 * adding or merging entries; `--check` only says whether the index is current (exit 1 if not).
 */
const file = path.resolve(import.meta.dirname, "..", "docs", "decisions.md");
const text = readFileSync(file, "utf8");
const duplicates = duplicateIds(parseDecisions(text));
if (duplicates.length > 0) {
  process.stderr.write(`docs/decisions.md uses these numbers twice: ${duplicates.join(", ")}. Renumber the newer entry first.\n`);
  process.exit(1);
}
const updated = withIndex(text);
if (process.argv.includes("--check")) {
  if (updated !== text) {
    process.stderr.write("docs/decisions.md: the index is stale; run `npm run docs:index`.\n");
    process.exit(1);
  }
  process.stdout.write("docs/decisions.md: the index is current.\n");
} else if (updated !== text) {
  writeFileSync(file, updated);
  process.stdout.write(`docs/decisions.md: index rebuilt (${parseDecisions(updated).length} decisions).\n`);
} else {
  process.stdout.write("docs/decisions.md: the index was already current.\n");
}
