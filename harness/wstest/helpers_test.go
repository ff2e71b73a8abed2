//go:build !js

package ws_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/mcpwasm/mcpwasm/core"
	"github.com/mcpwasm/mcpwasm/harness/demoserver"
	"github.com/mcpwasm/mcpwasm/harness/wsserver"
	"github.com/mcpwasm/mcpwasm/tests/testkit"
	"github.com/mcpwasm/mcpwasm/transport/ws"
)

var errEOF = io.EOF

// goServer is the official Go SDK server (harness/demoserver's tool set)
// behind harness/wsserver, with fault injection on.
type goServer struct {
	URL string // ws://127.0.0.1:<port>/mcp
	H   *wsserver.Handler
}

func startGoServer(t *testing.T) *goServer {
	t.Helper()
	demo := demoserver.New(&demoserver.Options{Modern: true})
	h := wsserver.New(demo.MCPServer(), &wsserver.Options{Faults: true})
	hs := httptest.NewServer(h)
	t.Cleanup(func() {
		h.Close()
		hs.Close()
		demo.Close()
	})
	return &goServer{URL: "ws" + strings.TrimPrefix(hs.URL, "http") + "/mcp", H: h}
}

func testCtx(t *testing.T) context.Context { return testkit.Ctx(t) }

// warnings collects OnWarning errors.
type warnings struct {
	mu   sync.Mutex
	errs []error
}

func (w *warnings) add(_ *core.Session, err error) {
	w.mu.Lock()
	w.errs = append(w.errs, err)
	w.mu.Unlock()
}

func (w *warnings) list() []error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]error(nil), w.errs...)
}

// connect opens a session over the WebSocket transport.
func connect(t *testing.T, url string, versions []string, copts *core.ClientOptions, wopts *ws.Options) *core.Session {
	t.Helper()
	if copts == nil {
		copts = &core.ClientOptions{}
	}
	if copts.OnWarning == nil {
		copts.OnWarning = func(_ *core.Session, err error) { t.Logf("warning: %v", err) }
	}
	client := core.NewClient(&core.Implementation{Name: "mcpwasm-ws-test", Version: "1.0.0"}, copts)
	tr, err := ws.New(url, wopts)
	require.NoError(t, err)
	s, err := client.Connect(testCtx(t), tr, &core.ConnectOptions{ProtocolVersions: versions})
	require.NoError(t, err)
	t.Cleanup(func() { s.Close() })
	return s
}

func text(t *testing.T, r *core.CallToolResult) string { return testkit.Text(t, r) }

func call(t *testing.T, s *core.Session, name string, args any) *core.CallToolResult {
	return testkit.Call(t, s, name, args)
}

// injectResult is the answer of wsserver's control request.
type injectResult struct {
	Connection int64             `json:"connection"`
	Cancelled  int64             `json:"cancelled"`
	Replies    []json.RawMessage `json:"replies"`
}

func inject(ctx context.Context, s *core.Session, params map[string]any) (*injectResult, error) {
	raw, err := s.Request(ctx, wsserver.InjectMethod, params, &core.CallOptions{NoCache: true})
	if err != nil {
		return nil, err
	}
	var r injectResult
	if err := json.Unmarshal(raw, &r); err != nil {
		return nil, err
	}
	return &r, nil
}
