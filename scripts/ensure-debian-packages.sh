#!/usr/bin/env bash
# Installs Debian packages the tests drive as real components (nginx, haproxy, pgbouncer,
# prometheus…) when a command they provide is missing. Usage:
#   bash scripts/ensure-debian-packages.sh COMMAND=PACKAGE [COMMAND=PACKAGE …]
# e.g. `nginx=nginx pgbouncer=pgbouncer promtool=prometheus`. A command is looked up on PATH and
# in /usr/sbin. Installs only as root with apt-get (waiting for another apt run's lock); otherwise
# stops with one line saying what to run. Nothing is downloaded outside Debian's packages.
set -u
missing=()
for pair in "$@"; do
  command_name="${pair%%=*}"
  package="${pair#*=}"
  if ! command -v "$command_name" >/dev/null 2>&1 && [ ! -x "/usr/sbin/$command_name" ] && [ ! -x "/usr/bin/$command_name" ]; then
    missing+=("$package")
  fi
done
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "Installing Debian's ${missing[*]} for the tests (apt-get, once)..."
  export DEBIAN_FRONTEND=noninteractive
  apt_opts=(-o DPkg::Lock::Timeout=300 -qq)
  # Services are not started at install: the tests start their own on loopback.
  made_policy=0
  if [ ! -e /usr/sbin/policy-rc.d ]; then
    printf '#!/bin/sh\nexit 101\n' > /usr/sbin/policy-rc.d && chmod +x /usr/sbin/policy-rc.d && made_policy=1
  fi
  ok=0
  if apt-get "${apt_opts[@]}" install -y --no-install-recommends "${missing[@]}" >/dev/null 2>&1; then ok=1
  elif apt-get "${apt_opts[@]}" update >/dev/null && apt-get "${apt_opts[@]}" install -y --no-install-recommends "${missing[@]}" >/dev/null; then ok=1
  fi
  [ "$made_policy" = 1 ] && rm -f /usr/sbin/policy-rc.d
  [ "$ok" = 1 ] && exit 0
  echo "Could not install ${missing[*]} with apt-get: run 'apt-get install -y ${missing[*]}' by hand, then run the tests again."
  exit 1
fi
echo "Missing for the tests: ${missing[*]}. Run 'sudo apt-get install -y ${missing[*]}', then run the tests again."
exit 1
