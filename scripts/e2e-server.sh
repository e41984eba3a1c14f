#!/usr/bin/env bash
# Playwright's web server: `npm start` on a fresh database every run, its output kept in
# <data dir>/start.log so the browser tests can sign in with the seeded owner's password,
# which `npm start` prints once (and nowhere else).
set -euo pipefail
cd "$(dirname "$0")/.."
dir="${GROUNDWORK_DATA_DIR:-.data/e2e}"
pidfile="$dir/postgres/postmaster.pid"
# A previous run killed hard leaves its embedded Postgres behind: stop that one (by its pid).
if [ -f "$pidfile" ]; then
  pid=$(head -1 "$pidfile")
  if kill -INT "$pid" 2>/dev/null; then
    for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  fi
fi
rm -rf "$dir"
mkdir -p "$dir"
# Playwright stops the server by signalling this whole process group (SIGTERM, and SIGKILL after
# webServer.gracefulShutdown.timeout) and takes this script's end as the server being gone. So
# the script outlives the signal: it waits for start-server.ts, which drains, stops its worker process
# and then its embedded Postgres (a process group of its own, which a SIGKILL never reaches).
# start-server.ts runs under node itself, as `npm start` runs it (scripts/start.mjs), not npx/tsx
# wrappers: those relay the group's SIGTERM to it a second time, which it takes as "exit now" and
# leaves its Postgres running.
trap ':' TERM INT
# npm start's own Node flags (package.json), so the browser tests run the server users run.
read -r -a flags <<< "$(node scripts/start-flags.mjs)"
# The server's output goes to the log alone (D560): a green run's expected lines (a failing
# source's sync, the worker's stack traces, Postgres' FATAL "terminating connection" at its
# stop) are not the runner's to print. A copy lands in test-results/e2e-server.log for a failed
# test to be read against (scripts/test-all.sh prints its end when the suite fails), and the whole
# log is printed here if the server itself fails.
log="$dir/start.log"
set +e
node "${flags[@]}" scripts/start.mjs > "$log" 2>&1
status=$?
mkdir -p test-results && cp "$log" test-results/e2e-server.log
if [ "$status" -ne 0 ]; then
  echo "the app under test (npm start) exited with status $status; its output:" >&2
  cat "$log" >&2
fi
exit "$status"
