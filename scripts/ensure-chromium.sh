#!/usr/bin/env bash
# The browser tests drive Debian's Chromium (never a downloaded browser). Installs it when it is
# missing and this user may (root with apt-get); otherwise stops with one line saying what to run.
set -u
browser="${CHROMIUM_PATH:-/usr/bin/chromium}"
[ -x "$browser" ] && exit 0
if [ -n "${CHROMIUM_PATH:-}" ]; then
  echo "CHROMIUM_PATH=$CHROMIUM_PATH is not an executable: point it at a Chromium binary, or unset it and run: sudo apt-get install -y chromium"
  exit 1
fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "Installing Debian's chromium for the browser tests (apt-get, about a minute)..."
  export DEBIAN_FRONTEND=noninteractive
  if apt-get update -qq >/dev/null && apt-get install -y -qq chromium >/dev/null && [ -x "$browser" ]; then exit 0; fi
  echo "Could not install chromium with apt-get: run 'apt-get install -y chromium' by hand, then npm test again."
  exit 1
fi
echo "Chromium is missing for the browser tests: run 'sudo apt-get install -y chromium' (or set CHROMIUM_PATH), then npm test again."
exit 1
