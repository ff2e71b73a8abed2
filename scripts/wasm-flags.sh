# The go build flags of the shipped WebAssembly modules, sourced by
# scripts/build-wasm.sh and scripts/size.sh (whose reference modules are
# built the same way, so the comparison holds).
#
# Inlining is turned off (-l) for the packages no tool call runs through —
# the OAuth flows and their WebCrypto signer, the bridge's configuration,
# error formatting (errf), URL parsing (urlx), the auth store's JSON, the
# JSON Schema validator (only tools with an output schema use it, once per
# result), and for wasip1 what remains of encoding/json, reflect, fmt and
# net/url (the GOOS=js module links none of them): inlining copies a body into every
# call site, and with the wasm backend the copies cost more bytes than the
# calls they replace (1,661,152 -> 1,599,283 bytes gzip at 609e16c). The
# hot path (runtime, core, jsonrpc, jsonscan, sse, the transports, the
# bridge's plumbing) keeps it: with inlining off everywhere the module was
# 1,526,889 bytes, but make bench lost up to a third of the calls/s on
# 1 MB and 10 MB results over SSE (docs/size.md).
m=github.com/mcpwasm/mcpwasm
wasm_goflags=(-trimpath "-ldflags=-s -w"
  "-gcflags=$m/auth=-l" "-gcflags=$m/internal/bridge=-l" "-gcflags=$m/internal/js/crypto=-l"
  "-gcflags=$m/internal/errf=-l" "-gcflags=$m/internal/urlx=-l" "-gcflags=$m/internal/authjson=-l"
  "-gcflags=$m/internal/jsonschema=-l"
  "-gcflags=encoding/json=-l" "-gcflags=reflect=-l" "-gcflags=fmt=-l" "-gcflags=net/url=-l")
unset m

# wasm_strip FILE…: takes the position tables (file, line and inline
# information for stack traces) out of shipped modules after the link
# (internal/wasmstrip; docs/size.md): a Go panic's trace then names the
# functions but prints "?:0" for their positions. Run from the repository
# root. MCPWASM_WASM_LINES=keep skips it, for a module whose traces name
# files and lines.
wasm_strip() {
  [ "${MCPWASM_WASM_LINES:-}" = keep ] && return 0
  mkdir -p build/bin
  go build -o build/bin/wasmstrip ./internal/wasmstrip/cmd/wasmstrip || return 1
  local f
  for f in "$@"; do build/bin/wasmstrip "$f" || return 1; done
}
