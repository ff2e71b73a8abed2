#!/usr/bin/env bash
# make bench: speed and allocations, measured (never asserted).
#  1. Go benchmarks of the hot paths (SSE parsing, schema validation, the
#     session pipeline over an in-memory pipe).
#  2. bench/run.mjs: the JS package in Node 20 and Node 22 against the
#     TypeScript SDK v2 client and a bare fetch loop, same TypeScript SDK v2
#     server, both eras, JSON and SSE answers, fresh process per client per
#     round; start-up; a 100k-call soak (against the official Go SDK
#     server); the native Go client against the official Go SDK client.
#     It writes docs/bench.md and docs/bench.svg. Its knobs (BENCH_QUICK=1
#     for a small run, BENCH_ROUNDS, …) are listed at the top of
#     bench/run.mjs. Set BENCH_GO=0 to skip step 1;
#     BENCH_GO_TIME (default 0.3s) is step 1's -benchtime (a fixed 2000x
#     made the 22 ms large-SSE-event benchmark alone take 45 s).
#
# make bench-runtimes (scripts/bench.sh runtimes): step 2 in Deno, Bun and
# a Chromium page alone (BENCH_RUNTIMES, default deno,bun,chromium), no Go
# benchmarks; it writes docs/bench-runtimes.md and bench-runtimes.json.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/node-deps.sh >/dev/null
bash scripts/build-wasm.sh

if [ "${1:-}" = runtimes ]; then
  runtimes=${BENCH_RUNTIMES:-deno,bun,chromium}
  case ",$runtimes," in *,chromium,*) bash scripts/browser-deps.sh >/dev/null ;; esac
  start=$(date +%s)
  status=0
  BENCH_NODES= BENCH_NATIVE=0 BENCH_SOAK=0 BENCH_NAME=bench-runtimes BENCH_RUNTIMES="$runtimes" \
    node bench/run.mjs || status=$?
  echo; echo "make bench-runtimes: $(( $(date +%s) - start )) s"
  exit "$status"
fi

start=$(date +%s)
if [ "${BENCH_GO:-1}" != 0 ]; then
  echo; echo "== Go benchmarks"
  go test -run '^$' -bench . -benchmem -benchtime "${BENCH_GO_TIME:-0.3s}" ./core/ ./internal/sse/ ./internal/jsonschema/
fi

echo; echo "== side by side (bench/run.mjs)"
status=0
node bench/run.mjs || status=$?
echo; echo "make bench: $(( $(date +%s) - start )) s"
exit "$status"
