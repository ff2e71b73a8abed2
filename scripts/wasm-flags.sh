# The go build flags of the shipped WebAssembly modules, sourced by
# scripts/build-wasm.sh and scripts/size.sh (whose reference modules are
# built the same way, so the comparison holds).
#
# -gcflags=all=-l turns the compiler's inlining off: the GOOS=js module is
# 8 % smaller gzipped (1,661,152 -> 1,526,889 bytes at 609e16c) because the
# wasm backend's code for an inlined body is larger than a call, and the
# time a call spends in Go is a small part of its cost (fetch, the event
# loop and JSON.parse dominate: see docs/bench.md, measured with this flag).
wasm_goflags=(-trimpath "-ldflags=-s -w" "-gcflags=all=-l")
