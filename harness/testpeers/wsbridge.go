package testpeers

import (
	"path/filepath"
	"strings"
	"testing"
)

// WSBridgeOptions configures StartWSBridge; nil means defaults.
type WSBridgeOptions struct {
	// Verbose makes the bridge log connections and every frame (the first
	// 200 characters, "#<conn> -> <frame>" for client to server and
	// "#<conn> <- <line>" for server to client) to its stderr, which
	// Peer.Stderr returns: tests can check what crossed the wire.
	Verbose bool
}

// StartWSBridge starts node/ws-bridge.mjs, a WebSocket front (package ws,
// subprotocol "mcp", one JSON-RPC message per text frame) for
// @modelcontextprotocol/server-everything in stdio mode: every WebSocket
// gets its own server-everything process (legacy era). It returns once the
// bridge listens; Peer.URL is ws://127.0.0.1:<port>/mcp and Peer.Origin
// the bridge's http://127.0.0.1:<port>; opts may be nil. The process (and its children) is
// stopped when t's cleanup runs. It calls t.Fatal if node or the Node
// dependencies are missing or the bridge does not start. It may be called
// from parallel tests: every call starts its own process.
func StartWSBridge(t testing.TB, opts *WSBridgeOptions) *Peer {
	t.Helper()
	root := RepoRoot(t)
	requireNodeModules(t, root, "ws", "@modelcontextprotocol/server-everything")
	args := []string{filepath.Join(root, "harness", "testpeers", "node", "ws-bridge.mjs"), "--port", "0"}
	if opts != nil && opts.Verbose {
		args = append(args, "--verbose")
	}
	p := start(t, "ws-bridge(server-everything stdio)", NodeBinary(t), args)
	// The bridge announces its HTTP endpoint, which upgrades to WebSocket.
	p.URL = "ws" + strings.TrimPrefix(p.URL, "http")
	return p
}
