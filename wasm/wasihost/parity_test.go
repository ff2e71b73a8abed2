package wasihost

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpwasm/mcpwasm/tests/peerproc"
	"github.com/mcpwasm/mcpwasm/wasm/abi"
)

// parityScenario is one configuration, in the bridge's JSON schema, and the
// steps both bridges run with it. Its options have effects a server sees
// or a caller feels: the client's identity and capabilities (initialize),
// the protocol version, a header, _meta, the meaning of a per-call timeout
// of 0 (none: the 6 s call outlives the client's 5 s default, a default
// long enough for a handshake on a busy machine) and of a short one (the
// call is cancelled on the wire).
const parityScenario = `{
  "client": {
    "clientInfo": {"name": "parity", "version": "1.2.3", "title": "Parity"},
    "protocolVersions": ["2025-11-25"],
    "capabilities": {"experimental": {"parity": {}}},
    "handlers": {"elicitation": true},
    "elicitationModes": ["form", "url"],
    "roots": [{"uri": "file:///work", "name": "work"}],
    "requestTimeoutMs": 5000
  },
  "connect": {"transport": "streamable-http", "headers": {"X-Parity": "yes"}},
  "answers": {"elicitation/create": {"action": "decline"}},
  "steps": [
    {"method": "tools/call", "params": {"name": "add", "arguments": {"a": 2, "b": 3}}, "options": {"meta": {"trace": "t1"}}},
    {"method": "tools/call", "params": {"name": "slow", "arguments": {"ms": 6000}}, "options": {"timeoutMs": 0}},
    {"method": "tools/call", "params": {"name": "slow", "arguments": {"ms": 5000}}, "options": {"timeoutMs": 50}},
    {"method": "tools/call", "params": {"name": "whoami", "arguments": {}}},
    {"method": "ping"},
    {"method": "logging/setLevel", "params": {"level": "error"}}
  ]
}`

type parityRun struct {
	Era             string            `json:"era"`
	ProtocolVersion string            `json:"protocolVersion"`
	Outcomes        []json.RawMessage `json:"outcomes"`
}

// TestBridgeParity feeds the same configuration through both bridges —
// the wasip1 guest under this package's Host and the GOOS=js module under
// Node — against the Go SDK's server behind a recording proxy, and checks
// that the server saw the same messages and the caller got the same
// outcomes. It needs js/dist/mcpwasm.wasm (bash scripts/build-wasm.sh,
// which scripts/test.sh runs first) and node.
func TestBridgeParity(t *testing.T) {
	root := peerproc.RepoRoot(t)
	_, err := os.Stat(filepath.Join(root, "js", "dist", "mcpwasm.wasm"))
	require.NoError(t, err, "build the GOOS=js module first: bash scripts/build-wasm.sh")
	var sc struct {
		Client, Connect json.RawMessage
		Answers         map[string]json.RawMessage
		Steps           []struct {
			Method          string
			Params, Options json.RawMessage
		}
	}
	require.NoError(t, json.Unmarshal([]byte(parityScenario), &sc))
	origin := peerproc.GoSDKServer(t, peerproc.DemoOptions{})

	// The wasip1 guest.
	wasiRec := newRecorder(t, origin)
	h := newHost(t, nil)
	ctx := testCtx(t)
	creq := append(bytes.TrimSuffix(bytes.TrimSpace(sc.Connect), []byte("}")), []byte(`,"url":"`+wasiRec.url+peerproc.MCPPath+`"}`)...)
	s, err := h.connect(ctx, &ConnectOptions{Handlers: Handlers{Elicitation: func(context.Context, json.RawMessage) (json.RawMessage, error) {
		return sc.Answers["elicitation/create"], nil
	}}}, sc.Client, creq)
	require.NoError(t, err)
	wasi := parityRun{Era: s.Era(), ProtocolVersion: s.ProtocolVersion()}
	for _, step := range sc.Steps {
		req := abi.CallRequest{Method: step.Method, Params: step.Params}
		if step.Options != nil {
			require.NoError(t, json.Unmarshal(step.Options, &req.CallOptions))
		}
		raw, err := s.request(ctx, &req, nil)
		wasi.Outcomes = append(wasi.Outcomes, outcome(t, raw, err))
	}
	require.NoError(t, s.Close())

	// The GOOS=js module.
	jsRec := newRecorder(t, origin)
	path := filepath.Join(t.TempDir(), "scenario.json")
	require.NoError(t, os.WriteFile(path, []byte(parityScenario), 0o600))
	nctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(nctx, "node", filepath.Join("testdata", "parity.mjs"), jsRec.url+peerproc.MCPPath, path)
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	require.NoError(t, err)
	var js parityRun
	require.NoError(t, json.Unmarshal(out, &js), "%s", out)

	assert.Equal(t, "legacy", wasi.Era)
	assert.Equal(t, "2025-11-25", wasi.ProtocolVersion)
	require.Len(t, wasi.Outcomes, len(sc.Steps))
	assert.JSONEq(t, `{"error":"timeout"}`, string(wasi.Outcomes[2]), "a short timeout times out")
	assert.Contains(t, string(wasi.Outcomes[1]), `"result"`, "a timeout of 0 is none: the call outlives the client's default")
	assert.Equal(t, wasi.Era, js.Era)
	assert.Equal(t, wasi.ProtocolVersion, js.ProtocolVersion)
	for i := range wasi.Outcomes {
		assert.JSONEq(t, string(wasi.Outcomes[i]), string(js.Outcomes[i]), "step %d (%s)", i, sc.Steps[i].Method)
	}

	wasiSeen, jsSeen := wasiRec.messages(), jsRec.messages()
	assert.Contains(t, strings.Join(wasiSeen, "\n"), `"clientInfo":{"name":"parity","title":"Parity","version":"1.2.3"}`)
	assert.Contains(t, strings.Join(wasiSeen, "\n"), `notifications/cancelled`, "the timed-out call is cancelled on the wire")
	assert.Equal(t, wasiSeen, jsSeen, "the server saw the same messages from both bridges")
}

// outcome is a step's outcome as parity.mjs prints it.
func outcome(t *testing.T, raw json.RawMessage, err error) json.RawMessage {
	t.Helper()
	if err != nil {
		kind := abi.KindRPC
		var ge *GuestError
		if errors.As(err, &ge) {
			kind = ge.Kind
		}
		b, _ := json.Marshal(map[string]string{"error": kind})
		return b
	}
	var v any
	require.NoError(t, json.Unmarshal(raw, &v))
	b, _ := json.Marshal(map[string]any{"result": v})
	return b
}

// recorder is a proxy in front of a real server that records the JSON-RPC
// messages POSTed to it, with the headers that carry configuration.
type recorder struct {
	url string
	mu  sync.Mutex
	got []string
}

func newRecorder(t *testing.T, origin string) *recorder {
	t.Helper()
	r := &recorder{}
	proxy := peerproc.Proxy(t, origin)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if req.Method == http.MethodPost {
			body, _ := io.ReadAll(io.LimitReader(req.Body, 1<<20))
			req.Body = io.NopCloser(bytes.NewReader(body))
			r.record(req.Header, body)
		}
		proxy.ServeHTTP(w, req)
	})}
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { _ = srv.Close() })
	r.url = "http://" + ln.Addr().String()
	return r
}

// record keeps a message without what differs from run to run: request
// ids are replaced by their order (a cancellation names the request it
// cancels by that order), results and errors sent to the server are kept.
func (r *recorder) record(h http.Header, body []byte) {
	var m map[string]any
	if json.Unmarshal(body, &m) != nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, ok := m["id"]; ok && m["method"] != nil {
		m["id"] = "request"
	}
	if p, ok := m["params"].(map[string]any); ok && m["method"] == "notifications/cancelled" {
		p["requestId"] = "a request"
	}
	m["header"] = map[string]string{"MCP-Protocol-Version": h.Get("MCP-Protocol-Version"), "X-Parity": h.Get("X-Parity")}
	b, _ := json.Marshal(m)
	r.got = append(r.got, string(b))
}

// messages returns the recorded messages in a stable order (the legacy
// transport may interleave the initialized notification and the first
// requests).
func (r *recorder) messages() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := slices.Clone(r.got)
	slices.Sort(out)
	return out
}
