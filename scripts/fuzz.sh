#!/usr/bin/env bash
# Runs every Go fuzz target of the module (natively), one after the other,
# for FUZZTIME each (default 1m; any `go test -fuzztime` value: 30s, 5m,
# 10000x). Targets are found in the test files each package builds
# natively, so a new `func FuzzXxx` is picked up without editing this
# script. FUZZPARALLEL sets the fuzzing workers (default: go's, GOMAXPROCS).
# Arguments, if any, are target names to run (e.g. FuzzABIInput).
# FUZZCOUNT, when set, names a file that gets make test's count line
# ("<passed> <failed> 0 fuzz targets", see scripts/testcount.mjs).
#
# A failing input is written by go test under the package's
# testdata/fuzz/<Target>/ (commit it: it becomes a regression seed); the
# script goes on with the other targets and exits non-zero at the end.
set -euo pipefail
cd "$(dirname "$0")/.."

case "${1:-}" in -h|--help) sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;; esac

fuzztime=${FUZZTIME:-1m}
parallel=()
[ -n "${FUZZPARALLEL:-}" ] && parallel=(-parallel "$FUZZPARALLEL")

# "<dir> <file>…" per package with test files in the native build.
targets=()
while read -r dir files; do
  [ -n "$files" ] || continue
  for f in $files; do
    while read -r name; do
      [ -n "$name" ] && targets+=("$dir $name")
    done < <(sed -n 's/^func \(Fuzz[A-Za-z0-9_]*\)(.*/\1/p' "$dir/$f")
  done
done < <(go list -f '{{.Dir}} {{join .TestGoFiles " "}} {{join .XTestGoFiles " "}}' ./...)

if [ $# -gt 0 ]; then
  wanted=" $* "
  selected=()
  for t in "${targets[@]}"; do
    [[ "$wanted" == *" ${t##* } "* ]] && selected+=("$t")
  done
  targets=("${selected[@]}")
fi
[ ${#targets[@]} -gt 0 ] || { echo "scripts/fuzz.sh: no fuzz targets found" >&2; exit 1; }

root=$(pwd)
failed=()
start=$SECONDS
for t in "${targets[@]}"; do
  dir=${t% *} name=${t##* }
  pkg=./${dir#"$root"/}
  [ "$dir" = "$root" ] && pkg=.
  printf '== fuzz %s %s (%s)\n' "$pkg" "$name" "$fuzztime"
  if ! out=$(go test -run '^$' -fuzz "^${name}\$" -fuzztime "$fuzztime" "${parallel[@]}" "$pkg" 2>&1); then
    printf '%s\n' "$out" | grep -v '^fuzz: elapsed' | tail -40
    failed+=("$pkg $name")
  else
    printf '%s\n' "$out" | grep -E '^fuzz: elapsed' | tail -1 || true
  fi
done
echo "fuzzed ${#targets[@]} targets in $((SECONDS - start))s"
if [ -n "${FUZZCOUNT:-}" ]; then
  echo "$((${#targets[@]} - ${#failed[@]})) ${#failed[@]} 0 fuzz targets" >"$FUZZCOUNT"
fi
if [ ${#failed[@]} -gt 0 ]; then
  echo "fuzz failures (inputs saved under each package's testdata/fuzz/):"
  printf '  %s\n' "${failed[@]}"
  exit 1
fi
