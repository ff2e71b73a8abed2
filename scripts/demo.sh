#!/usr/bin/env bash
# make demo: builds the WebAssembly module and the example-web server, then
# runs it on 127.0.0.1 (the page, the mcpwasm package and an embedded demo
# MCP server in one process) and prints the URL. Needs only Go; the page
# needs no npm packages, except to render MCP Apps (the apps host bundle,
# built when Node and node_modules are there). Ctrl-C stops it.
#
# Port: $PORT, or -port N as an argument (make demo ARGS="-port 9000"),
# else 8080 or the next free port. Other flags: build/bin/example-web -h
# (the server is harness/exampleweb, in the harness module).
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/build-wasm.sh
# The MCP Apps host is the page's one bundled piece (it needs the npm
# dependencies; without them the page shows that a tool has an app but does
# not render it).
if command -v node >/dev/null; then node example-web/build-apps.mjs; fi
mkdir -p build/bin
go build -C harness -o "$(pwd)/build/bin/example-web" ./exampleweb
# shellcheck disable=SC2086 # ARGS is a list of flags
exec build/bin/example-web -dir . ${ARGS:-} "$@"
