#!/usr/bin/env bash
# make size: the sizes of mcpwasm's WebAssembly builds — raw, gzip -9 and
# brotli (when the brotli tool is installed). Each build is an independent
# section: a section_<name> function that builds its artifact under
# build/size/ and calls report; list it in "sections" at the bottom.
set -euo pipefail
cd "$(dirname "$0")/.."
out=build/size
mkdir -p "$out"

# human BYTES: bytes with a MiB/KiB figure.
human() {
  awk -v b="$1" 'BEGIN { if (b >= 1048576) printf "%d (%.2f MiB)", b, b/1048576; else printf "%d (%.1f KiB)", b, b/1024 }'
}

# report LABEL FILE: one line of sizes.
report() {
  local label=$1 file=$2 raw gz br
  raw=$(wc -c < "$file")
  gz=$(gzip -9 -c "$file" | wc -c)
  if command -v brotli >/dev/null 2>&1; then
    br=$(human "$(brotli -q 11 -c "$file" | wc -c)")
  else
    br="skipped (brotli is not installed)"
  fi
  printf '  %-34s raw %-22s gzip -9 %-22s brotli %s\n' "$label" "$(human "$raw")" "$(human "$gz")" "$br"
}

# The GOOS=wasip1 reactor (wasm/wasip1), as shipped (stripped) and as the
# tests build it (with the name section, for readable trap traces).
section_wasip1() {
  echo "== wasip1 reactor: GOOS=wasip1 GOARCH=wasm -buildmode=c-shared ./wasm/wasip1 ($(go env GOVERSION))"
  GOOS=wasip1 GOARCH=wasm go build -buildmode=c-shared -trimpath -ldflags="-s -w" -o "$out/mcpwasm-wasip1.wasm" ./wasm/wasip1
  report "mcpwasm-wasip1.wasm (-s -w)" "$out/mcpwasm-wasip1.wasm"
  GOOS=wasip1 GOARCH=wasm go build -buildmode=c-shared -o "$out/mcpwasm-wasip1-debug.wasm" ./wasm/wasip1
  report "mcpwasm-wasip1-debug.wasm" "$out/mcpwasm-wasip1-debug.wasm"
  if GOOS=wasip1 GOARCH=wasm go list -deps ./wasm/wasip1 | grep -qx 'net/http'; then
    echo "  error: net/http is linked into the wasip1 module" >&2
    return 1
  fi
  echo "  net/http: not linked"
}

# The GOOS=js module behind the npm package (wasm/js), as shipped, and the
# package's JavaScript glue, against the budget in DESIGN.md (1.2 MB gzip).
section_js() {
  echo "== GOOS=js module: GOOS=js GOARCH=wasm ./wasm/js ($(go env GOVERSION)); budget 1.2 MB gzip"
  bash scripts/build-wasm.sh >/dev/null
  cp js/dist/mcpwasm.wasm "$out/mcpwasm.wasm"
  report "mcpwasm.wasm (-s -w)" "$out/mcpwasm.wasm"
  cat js/src/*.js > "$out/glue.js"
  report "JS glue (js/src/*.js)" "$out/glue.js"
  report "wasm_exec.js (from the toolchain)" js/dist/wasm_exec.js
  for pkg in net/http crypto/tls regexp mime; do
    if GOOS=js GOARCH=wasm go list -deps ./wasm/js | grep -qx "$pkg"; then
      echo "  linked: $pkg"
    else
      echo "  not linked: $pkg"
    fi
  done
}

sections=(js wasip1)
for s in "${sections[@]}"; do
  "section_$s"
done
