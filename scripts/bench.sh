#!/usr/bin/env bash
# make bench: speed and allocations, measured (never asserted).
#  1. Go benchmarks of the hot paths (SSE parsing, schema validation, the
#     session pipeline over an in-memory pipe).
#  2. The JS package in Node against the TypeScript SDK v2 client and a bare
#     fetch loop, same server, sequential and 64 concurrent, client CPU per
#     call, and a soak run checking for growth.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/node-deps.sh >/dev/null
bash scripts/build-wasm.sh

echo; echo "== Go benchmarks"
go test -run '^$' -bench . -benchmem -benchtime 2000x ./core/ ./internal/sse/ ./internal/jsonschema/

echo; echo "== JS package vs the TypeScript SDK v2 client (Node $(node --version))"
node --expose-gc bench/node-bench.mjs --calls "${BENCH_CALLS:-3000}" --soak "${BENCH_SOAK:-100000}"
