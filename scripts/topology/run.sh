#!/usr/bin/env bash
# `npm run test:topology`: the programs the topology test drives, installed from Debian when
# missing (as npm test does for Chromium), then the test itself; its counts go to
# reports/topology.json, which .ci/run adds into its closing `N passed, N failed` line.
set -u
cd "$(dirname "$0")/../.."
bash scripts/ensure-debian-packages.sh pgbouncer=pgbouncer haproxy=haproxy redis-server=redis-server || exit 1
# PostgreSQL 15's server binaries live off PATH; no command of that name exists, so the check is the file.
if [ ! -x /usr/lib/postgresql/15/bin/initdb ]; then
  bash scripts/ensure-debian-packages.sh postgresql-15-server-binaries=postgresql-15 || exit 1
fi
exec npx vitest run --project topology --reporter=default --reporter=json --outputFile.json=reports/topology.json "$@"
