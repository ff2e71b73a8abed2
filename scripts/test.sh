#!/usr/bin/env bash
# The project's test command (make test): static checks, Go tests against
# real MCP servers, and the conformance suite. Installs the Node
# dependencies it needs first (idempotent).
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n== %s\n' "$*"; }

step "node dependencies"
bash scripts/node-deps.sh

step "gofmt / go vet"
unformatted=$(gofmt -l $(git ls-files '*.go' | grep -v '^node_modules/') 2>/dev/null || true)
if [ -n "$unformatted" ]; then
  echo "gofmt would change:"; echo "$unformatted"; exit 1
fi
go vet ./...

step "go test (native, race detector)"
go test -race -count=1 ./...

step "conformance"
bash conformance/run.sh
