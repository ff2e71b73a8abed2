#!/usr/bin/env bash
# make size: the sizes of mcpwasm's WebAssembly builds — raw, gzip -9 and
# brotli (when the brotli tool is installed) — and a gate: it exits non-zero
# when a module's gzip -9 size is over its budget (sizes are deterministic
# for a given toolchain, so a gate is fair; timings are never gated).
#
# Budgets (bytes of `gzip -9` output):
#   GOOS=js module (js/dist/mcpwasm.wasm, as shipped)   1,200,000  (issue 9, DESIGN.md:
#                                                                   "1.2 MB gzip with everything in")
#   wasip1 reactor (as shipped: scripts/wasm-flags.sh)                 1,800,000  (provisional: today's size
#                                                                   plus headroom, until a real
#                                                                   budget is set)
# The debug build of the wasip1 reactor (with the name section, for the
# tests) is reported, not gated.
#
# Each build is an independent section: a section_<name> function that
# builds its artifact under build/size/ and calls report (and gate); list it
# in "sections" at the bottom. Every section runs even when an earlier one
# failed; the exit status says whether all were within budget.
set -uo pipefail
cd "$(dirname "$0")/.."
out=build/size
. scripts/wasm-flags.sh
mkdir -p "$out"

JS_BUDGET=1200000
WASIP1_BUDGET=1800000

failures=()

# human BYTES: bytes with a MiB/KiB figure.
human() {
  awk -v b="$1" 'BEGIN { if (b >= 1048576) printf "%d (%.2f MiB)", b, b/1048576; else printf "%d (%.1f KiB)", b, b/1024 }'
}

# gz FILE: bytes of gzip -9 output.
gz() { gzip -9 -c "$1" | wc -c | tr -d ' '; }

# report LABEL FILE: one line of sizes.
report() {
  local label=$1 file=$2 raw gzb br
  raw=$(wc -c < "$file" | tr -d ' ')
  gzb=$(gz "$file")
  if command -v brotli >/dev/null 2>&1; then
    br=$(human "$(brotli -q 11 -c "$file" | wc -c)")
  else
    br="skipped (brotli is not installed)"
  fi
  printf '  %-34s raw %-22s gzip -9 %-22s brotli %s\n' "$label" "$(human "$raw")" "$(human "$gzb")" "$br"
}

# gate LABEL FILE BUDGET: the budget line; records a failure when over.
gate() {
  local label=$1 file=$2 budget=$3 gzb margin
  gzb=$(gz "$file")
  margin=$((budget - gzb))
  if [ "$margin" -ge 0 ]; then
    printf '  budget %-27s gzip -9 %s of %s: within, margin %s\n' "$label" "$gzb" "$budget" "$(human "$margin")"
  else
    printf '  budget %-27s gzip -9 %s of %s: OVER by %s\n' "$label" "$gzb" "$budget" "$(human $((-margin)))"
    failures+=("$label is $gzb bytes gzip -9, over its budget of $budget by $((-margin))")
  fi
}

# The GOOS=wasip1 reactor (wasm/wasip1), as shipped (stripped) and as the
# tests build it (with the name section, for readable trap traces).
section_wasip1() {
  echo "== wasip1 reactor: GOOS=wasip1 GOARCH=wasm -buildmode=c-shared ./wasm/wasip1 ($(go env GOVERSION)); budget $WASIP1_BUDGET bytes gzip -9 (provisional)"
  GOOS=wasip1 GOARCH=wasm go build -buildmode=c-shared "${wasm_goflags[@]}" -o "$out/mcpwasm-wasip1.wasm" ./wasm/wasip1 || { failures+=("the wasip1 build failed"); return; }
  wasm_strip "$out/mcpwasm-wasip1.wasm" || { failures+=("stripping the wasip1 module failed"); return; }
  report "mcpwasm-wasip1.wasm (as shipped)" "$out/mcpwasm-wasip1.wasm"
  GOOS=wasip1 GOARCH=wasm go build -buildmode=c-shared -o "$out/mcpwasm-wasip1-debug.wasm" ./wasm/wasip1 || { failures+=("the wasip1 debug build failed"); return; }
  report "mcpwasm-wasip1-debug.wasm" "$out/mcpwasm-wasip1-debug.wasm"
  gate "mcpwasm-wasip1.wasm" "$out/mcpwasm-wasip1.wasm" "$WASIP1_BUDGET"
  if GOOS=wasip1 GOARCH=wasm go list -deps ./wasm/wasip1 | grep -qx 'net/http'; then
    echo "  error: net/http is linked into the wasip1 module" >&2
    failures+=("net/http is linked into the wasip1 module")
  else
    echo "  net/http: not linked"
  fi
  no_calls_into wasip1 ./wasm/wasip1
}

# The GOOS=js module behind the npm package (wasm/js), as shipped, and the
# package's JavaScript glue.
section_js() {
  echo "== GOOS=js module: GOOS=js GOARCH=wasm ./wasm/js ($(go env GOVERSION)); budget $JS_BUDGET bytes gzip -9"
  bash scripts/build-wasm.sh >/dev/null || { failures+=("the GOOS=js build failed"); return; }
  cp js/dist/mcpwasm.wasm "$out/mcpwasm.wasm"
  report "mcpwasm.wasm (as shipped)" "$out/mcpwasm.wasm"
  # The main entry's glue (what src/index.js imports), and the optional
  # subpath modules apart (mcpwasm/apps, mcpwasm/react; Node's helpers).
  (cd js/src && cat index.js client.js lane.js host.js loader.js auth.js errors.js manager.js llm.js) > "$out/glue.js"
  report "JS glue (the main entry)" "$out/glue.js"
  report "mcpwasm/apps (apps.js)" js/src/apps.js
  report "mcpwasm/react (react.js)" js/src/react.js
  report "wasm_exec.js (from the toolchain)" js/dist/wasm_exec.js
  gate "mcpwasm.wasm" "$out/mcpwasm.wasm" "$JS_BUDGET"
  for pkg in net/http crypto/tls regexp mime; do
    if GOOS=js GOARCH=wasm go list -deps ./wasm/js | grep -qx "$pkg"; then
      echo "  linked: $pkg"
    else
      echo "  not linked: $pkg"
    fi
  done
  # An imported package's initialisation is linked even when none of its
  # functions is: encoding/json's brings fmt, os and reflect (33 KB gzip;
  # internal/rawjson, docs/size.md). The module imports none of them.
  local imported
  imported=$(GOOS=js GOARCH=wasm go list -deps ./wasm/js | grep -x -E 'encoding/json|fmt|os|reflect|runtime/debug|encoding/binary' | tr '\n' ' ')
  if [ -n "$imported" ]; then
    echo "  error: the GOOS=js module imports $imported(see docs/size.md)" >&2
    failures+=("the GOOS=js module imports $imported")
  else
    echo "  encoding/json, fmt, os, reflect: not imported"
  fi
  no_calls_into js ./wasm/js
}

# no_calls_into GOOS PKG: the library's code calls nothing in
# encoding/json, fmt or net/url (in the GOOS=js module that keeps those
# packages and the reflection behind them out — about a fifth of a module;
# docs/size.md — and in wasip1 only the standard library's RSA and big
# numbers still call fmt). The linker's reachability dump (-dumpdep) names
# the first caller of each function it keeps; a caller in this module is a
# failure.
no_calls_into() {
  local goos=$1 pkg=$2 mode=() calls
  [ "$goos" = wasip1 ] && mode=(-buildmode=c-shared)
  calls=$(GOOS=$goos GOARCH=wasm go build "${mode[@]}" -trimpath -ldflags=-dumpdep -o /dev/null "$pkg" 2>&1 |
    grep -E -- '-> (encoding/json|fmt|net/url)\.[A-Za-z(*]' |
    grep -E '^(github\.com/mcpwasm/mcpwasm/|main\.)' |
    grep -v -E 'arginfo|argliveinfo|stkobj|stmp_|opendefer|wrapinfo' |
    sort -u)
  if [ -n "$calls" ]; then
    echo "  error: the $goos module's own code calls encoding/json, fmt or net/url:" >&2
    echo "$calls" | sed 's/^/    /' >&2
    failures+=("the $goos module calls encoding/json, fmt or net/url")
  else
    echo "  encoding/json, fmt, net/url: not called by the library"
  fi
}

# Two reference modules that show what any GOOS=js module pays before a
# line of mcpwasm: the Go runtime with syscall/js, time and context (the
# floor), and the floor plus encoding/json, fmt and net/url (what the
# reflection-based codecs and formatting cost). Built from a throwaway
# module under build/size/floor with the same flags as the shipped module,
# and stripped as it is.
section_floor() {
  echo "== reference modules (GOOS=js, the shipped module's build flags)"
  local dir=$out/floor
  mkdir -p "$dir/runtime" "$dir/codecs"
  printf 'module floor\n\ngo 1.26\n' > "$dir/go.mod"
  cat > "$dir/runtime/main.go" <<'GO'
package main

import (
	"context"
	"strconv"
	"syscall/js"
	"time"
)

func main() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	js.Global().Set("x", strconv.Itoa(3)+ctx.Err().Error())
	select {}
}
GO
  cat > "$dir/codecs/main.go" <<'GO'
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"strconv"
	"syscall/js"
	"time"
)

func main() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	var v map[string]any
	_ = json.Unmarshal([]byte(js.Global().Get("y").String()), &v)
	b, _ := json.Marshal(v)
	u, _ := url.Parse(string(b))
	js.Global().Set("x", strconv.Itoa(3)+ctx.Err().Error()+fmt.Sprintf("%v %d", v, len(b))+u.String())
	select {}
}
GO
  local m
  for m in runtime codecs; do
    (cd "$dir" && GOOS=js GOARCH=wasm go build "${wasm_goflags[@]}" -o "$m.wasm" "./$m") || { failures+=("the $m reference build failed"); return; }
    wasm_strip "$dir/$m.wasm" || { failures+=("stripping the $m reference module failed"); return; }
  done
  report "Go runtime + syscall/js (floor)" "$dir/runtime.wasm"
  report "floor + encoding/json, fmt, net/url" "$dir/codecs.wasm"
}

sections=(js floor wasip1)
for s in "${sections[@]}"; do
  "section_$s"
done

if [ "${#failures[@]}" -gt 0 ]; then
  echo
  echo "size: FAILED" >&2
  for f in "${failures[@]}"; do echo "  $f" >&2; done
  exit 1
fi
echo
echo "size: every module is within its budget"
