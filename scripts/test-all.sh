#!/usr/bin/env bash
# `npm test`: every suite runs even when an earlier one fails, so one run shows every failure;
# the last line totals the test reports (`N passed, N failed`) and the exit code is non-zero if
# any step failed (lint, lint:migrations and typecheck count as steps, not as tests).
set -u
cd "$(dirname "$0")/.."
# Before anything slow: without a browser the end-to-end suite cannot run at all.
bash scripts/ensure-chromium.sh || exit 1
rm -rf reports test-results
failed_steps=()
# The static checks are single-threaded: side by side they take the time of the longest (D565).
# Each one's output is kept and printed whole, in order, once all have ended.
static_steps=(lint lint:migrations typecheck)
static_logs=$(mktemp -d)
for step in "${static_steps[@]}"; do
  (npm run -s "${step}" > "${static_logs}/${step}.log" 2>&1; echo $? > "${static_logs}/${step}.status") &
done
wait
for step in "${static_steps[@]}"; do
  echo "==> npm run ${step}"
  cat "${static_logs}/${step}.log"
  [ "$(cat "${static_logs}/${step}.status")" = "0" ] || failed_steps+=("${step}")
done
rm -rf "${static_logs}"
for step in test:unit test:integration test:device-sync test:e2e; do
  echo "==> npm run ${step}"
  npm run -s "${step}" || failed_steps+=("${step}")
done
[ ${#failed_steps[@]} -gt 0 ] && echo "Failed steps: ${failed_steps[*]}"
# The app under test logs to a file, not to this run (D560); a failed e2e step shows its end.
case " ${failed_steps[*]-} " in
  *" test:e2e "*)
    if [ -f test-results/e2e-server.log ]; then
      echo "==> the app under test's last 60 lines (all of it: test-results/e2e-server.log)"
      tail -n 60 test-results/e2e-server.log
    fi
    ;;
esac
# A failed lint, lint:migrations or typecheck step has no test report of its own: each counts as one failure, so
# the closing line is honest (lint:migrations, squawk over prisma/migrations, D393, is one such
# step); a test step that wrote no report is counted by test-summary.ts.
static_failed=0
for step in ${failed_steps[@]+"${failed_steps[@]}"}; do
  case "$step" in lint | lint:migrations | typecheck) static_failed=$((static_failed + 1)) ;; esac
done
npx tsx scripts/test-summary.ts --steps-failed="$static_failed" reports/unit.json reports/integration.json reports/device-sync.json reports/e2e.json
[ ${#failed_steps[@]} -eq 0 ]
