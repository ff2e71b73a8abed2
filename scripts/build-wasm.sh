#!/usr/bin/env bash
# Builds the GOOS=js WebAssembly module into js/dist/ together with the
# wasm_exec.js of the toolchain that built it (they must match), without
# its position tables (scripts/wasm-flags.sh: wasm_strip).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/wasm-flags.sh
mkdir -p js/dist
GOOS=js GOARCH=wasm go build "${wasm_goflags[@]}" -o js/dist/mcpwasm.wasm.tmp ./wasm/js
wasm_strip js/dist/mcpwasm.wasm.tmp
mv js/dist/mcpwasm.wasm.tmp js/dist/mcpwasm.wasm
cp "$(go env GOROOT)/lib/wasm/wasm_exec.js" js/dist/wasm_exec.js
echo "built js/dist/mcpwasm.wasm ($(wc -c < js/dist/mcpwasm.wasm) bytes) with $(go env GOVERSION)"
