#!/usr/bin/env bash
# Installs Debian's chromium (/usr/bin/chromium) for the headless browser
# tests (driven by playwright-core from node_modules, which downloads no
# browser of its own). Idempotent: returns at once when chromium is there.
#
# As root (CI) it runs apt-get directly; otherwise through sudo when sudo is
# available without a password prompt, else it fails with a clear message.
#
# Usage: scripts/browser-deps.sh
# Env:   MCPWASM_CHROMIUM=/path/to/chromium   use that binary instead (no install)
set -euo pipefail

die() {
	echo "browser-deps: $*" >&2
	exit 1
}

if [ -n "${MCPWASM_CHROMIUM:-}" ]; then
	[ -x "$MCPWASM_CHROMIUM" ] || die "MCPWASM_CHROMIUM=$MCPWASM_CHROMIUM is not an executable"
	echo "browser-deps: using $MCPWASM_CHROMIUM"
	exit 0
fi

if [ -x /usr/bin/chromium ]; then
	echo "browser-deps: $(/usr/bin/chromium --version 2>/dev/null || echo chromium) is installed"
	exit 0
fi

command -v apt-get >/dev/null 2>&1 ||
	die "/usr/bin/chromium is missing and apt-get is not available: install Chromium and set MCPWASM_CHROMIUM to its path"

if [ "$(id -u)" -eq 0 ]; then
	as_root=()
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
	as_root=(sudo -n)
else
	die "/usr/bin/chromium is missing; run as root (or with password-less sudo): apt-get install -y --no-install-recommends chromium"
fi

echo "browser-deps: installing Debian chromium (apt-get)"
start=$(date +%s)
export DEBIAN_FRONTEND=noninteractive
"${as_root[@]}" apt-get update -qq
"${as_root[@]}" apt-get install -y -qq --no-install-recommends chromium >/dev/null
[ -x /usr/bin/chromium ] || die "apt-get finished but /usr/bin/chromium is still missing"
echo "browser-deps: installed $(/usr/bin/chromium --version 2>/dev/null) in $(($(date +%s) - start)) s"
