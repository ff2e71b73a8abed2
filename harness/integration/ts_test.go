package integration_test

import (
	"testing"

	"github.com/mcpwasm/mcpwasm/core"
	"github.com/mcpwasm/mcpwasm/harness/testpeers"
)

// tsPeer starts the official TypeScript SDK v2 server (a Node child
// process) implementing the shared test-peer feature set.
func tsPeer(opts testpeers.TSServerOptions) func(t *testing.T) string {
	return func(t *testing.T) string {
		t.Helper()
		if opts.PageSize == 0 {
			opts.PageSize = 10
		}
		return testpeers.StartTSServer(t, &opts).URL
	}
}

// TestTypeScriptSDKServer runs the feature table against the TypeScript SDK
// v2 server (@modelcontextprotocol/server 2.4.0): its modern era with MRTR
// input requests, subscriptions/listen, x-mcp-header validation and
// pagination, and its legacy sessions.
func TestTypeScriptSDKServer(t *testing.T) {
	peers := []peer{
		{name: "ts-modern", start: tsPeer(testpeers.TSServerOptions{}), era: core.EraModern, version: core.Version20260728},
		{name: "ts-modern-only", start: tsPeer(testpeers.TSServerOptions{Era: "modern"}), era: core.EraModern, version: core.Version20260728},
		{name: "ts-legacy", start: tsPeer(testpeers.TSServerOptions{}), versions: []string{core.Version20251125, core.Version20250618, core.Version20250326}, era: core.EraLegacy, version: core.Version20251125, noHeaderEcho: true},
		{name: "ts-legacy-only-server", start: tsPeer(testpeers.TSServerOptions{Era: "legacy"}), era: core.EraLegacy, version: core.Version20251125, noHeaderEcho: true},
	}
	for _, p := range peers {
		t.Run(p.name, func(t *testing.T) { runFeatureTable(t, p) })
	}
}
