# The go build flags of the shipped GOOS=js module, sourced by
# scripts/build-wasm.sh and scripts/size.sh (whose reference modules are
# built the same way, so the comparison holds).
wasm_goflags=(-trimpath "-ldflags=-s -w")
