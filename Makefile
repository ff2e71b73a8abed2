# mcpwasm — one thin Makefile; the work happens in scripts/.
.PHONY: test demo conformance fuzz bench bench-runtimes size wasm fmt vet fuzz

test:          ## everything CI runs: Go tests, JS/browser tests, conformance
	bash scripts/test.sh

demo:          ## the example web app with its embedded demo MCP server
	bash scripts/demo.sh

conformance:   ## the official conformance suite against every runner
	bash conformance/run.sh

fuzz:          ## every Go fuzz target, FUZZTIME each (default 1m): make fuzz FUZZTIME=5m
	bash scripts/fuzz.sh

bench:         ## side-by-side benchmarks; writes docs/bench.md (BENCH_QUICK=1: a small run)
	bash scripts/bench.sh

bench-runtimes: ## the same in Deno, Bun and a Chromium page; writes docs/bench-runtimes.md
	bash scripts/bench.sh runtimes

size:          ## sizes of the WebAssembly builds and the JS glue; fails over budget
	bash scripts/size.sh

fmt:
	gofmt -w $$(git ls-files '*.go')

vet:
	go vet ./...
	cd harness && go vet ./...
