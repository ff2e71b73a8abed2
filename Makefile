# mcpwasm — one thin Makefile; the work happens in scripts/.
.PHONY: test demo conformance bench size wasm fmt vet

test:          ## everything CI runs: Go tests, JS/browser tests, conformance
	bash scripts/test.sh

demo:          ## the example web app with its embedded demo MCP server
	bash scripts/demo.sh

conformance:   ## the official conformance suite against every runner
	bash conformance/run.sh

bench:         ## side-by-side benchmarks; writes docs/bench.md (BENCH_QUICK=1: a small run)
	bash scripts/bench.sh

size:          ## sizes of the WebAssembly builds and the JS glue; fails over budget
	bash scripts/size.sh

fmt:
	gofmt -w $$(git ls-files '*.go')

vet:
	go vet ./...
