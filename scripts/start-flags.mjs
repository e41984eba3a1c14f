// The Node flags `npm start` runs the server with, read from package.json (D342), so the bench and
// the browser tests start the same process users start. Run as a script, it prints them.
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

export const START_SCRIPT = "scripts/start.mjs";
const root = path.resolve(fileURLToPath(new URL("..", import.meta.url)));

/** @returns {string[]} */
export function npmStartNodeFlags() {
  const start = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")).scripts.start;
  const words = start.trim().split(/\s+/);
  if (words[0] !== "node" || words[words.length - 1] !== START_SCRIPT) throw new Error(`npm start is not "node [flags] ${START_SCRIPT}": ${start}`);
  return words.slice(1, -1);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) process.stdout.write(`${npmStartNodeFlags().join(" ")}\n`);
