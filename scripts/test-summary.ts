import { existsSync, readFileSync } from "node:fs";

/**
 * Totals the JSON reports of every suite (vitest unit + integration, Playwright) into the one
 * closing line CI reads: `N passed, N failed`.
 */
interface VitestReport {
  numPassedTests: number;
  numFailedTests: number;
  numPendingTests?: number;
  numTodoTests?: number;
}
interface PlaywrightReport {
  stats: { expected: number; unexpected: number; flaky: number; skipped: number };
}

// `--steps-failed=N`: steps with no test report of their own (lint, typecheck) that failed.
const stepsFailed = process.argv.slice(2).find((arg) => arg.startsWith("--steps-failed="));
// `--base="N passed, M failed"`: a closing line printed before (npm test's, for .ci/run), added in;
// a base that is not such a line counts as 1 failed.
const base = process.argv.slice(2).find((arg) => arg.startsWith("--base="));
const files = process.argv.slice(2).filter((arg) => !arg.startsWith("--"));
let passed = 0;
let failed = stepsFailed ? Number(stepsFailed.split("=")[1]) : 0;
if (base !== undefined) {
  const totals = /^(\d+) passed, (\d+) failed$/.exec(base.slice("--base=".length).trim());
  if (totals) {
    passed += Number(totals[1]);
    failed += Number(totals[2]);
  } else {
    process.stdout.write(`no closing line to add from before: counted as 1 failed\n`);
    failed += 1;
  }
}
let skipped = 0;
for (const file of files) {
  // A suite that wrote no report did not run to its end (it crashed, or its server never came
  // up): that is a failure, not zero tests.
  if (!existsSync(file)) {
    process.stdout.write(`no test report at ${file}: counted as 1 failed\n`);
    failed += 1;
    continue;
  }
  const report = JSON.parse(readFileSync(file, "utf8")) as VitestReport | PlaywrightReport;
  if ("stats" in report) {
    passed += report.stats.expected + report.stats.flaky;
    failed += report.stats.unexpected;
    skipped += report.stats.skipped;
  } else {
    passed += report.numPassedTests;
    failed += report.numFailedTests;
    skipped += (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
  }
}
// The closing line is exactly `N passed, N failed` (CI reads it); skipped tests go on the line before.
if (skipped) process.stdout.write(`${skipped} skipped\n`);
process.stdout.write(`${passed} passed, ${failed} failed\n`);
