package testpeers_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	"github.com/mcpwasm/mcpwasm/harness/testpeers"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

const (
	modernVersion = "2026-07-28"
	legacyVersion = "2025-11-25"
)

// newClient returns an HTTP client without keep-alive connections (so no
// transport goroutines outlive a test).
func newClient(t *testing.T) *http.Client {
	tr := &http.Transport{DisableKeepAlives: true}
	t.Cleanup(tr.CloseIdleConnections)
	return &http.Client{Transport: tr, Timeout: 30 * time.Second}
}

// rpcMessage is a JSON-RPC response (or any message read from a stream).
type rpcMessage struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Result map[string]any  `json:"result"`
	Error  *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

func post(t *testing.T, c *http.Client, url string, headers map[string]string, body any) *http.Response {
	t.Helper()
	data, err := json.Marshal(body)
	require.NoError(t, err)
	req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, url, bytes.NewReader(data))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	resp, err := c.Do(req)
	require.NoError(t, err)
	t.Cleanup(func() { _ = resp.Body.Close() })
	return resp
}

// readResponse returns the JSON-RPC response with the given id from a JSON
// body or an SSE stream.
func readResponse(t *testing.T, resp *http.Response, id int) rpcMessage {
	t.Helper()
	wantID := fmt.Sprint(id)
	ct := resp.Header.Get("Content-Type")
	switch {
	case strings.HasPrefix(ct, "application/json"):
		var m rpcMessage
		require.NoError(t, json.NewDecoder(resp.Body).Decode(&m))
		require.Equal(t, wantID, string(m.ID))
		return m
	case strings.HasPrefix(ct, "text/event-stream"):
		for ev := range sseEvents(t, resp.Body) {
			if ev.data == "" {
				continue // priming event
			}
			var m rpcMessage
			require.NoError(t, json.Unmarshal([]byte(ev.data), &m), "event data %q", ev.data)
			if m.Method == "" && string(m.ID) == wantID {
				return m
			}
		}
		t.Fatalf("stream ended without the response to request %d", id)
	default:
		body, _ := io.ReadAll(resp.Body)
		t.Fatalf("unexpected Content-Type %q (status %d): %s", ct, resp.StatusCode, body)
	}
	return rpcMessage{}
}

type sseEvent struct{ event, data string }

// sseEvents yields the events of a text/event-stream body (a minimal parser:
// LF line ends, comments skipped, multi-line data joined with "\n").
func sseEvents(t *testing.T, r io.Reader) func(yield func(sseEvent) bool) {
	return func(yield func(sseEvent) bool) {
		sc := bufio.NewScanner(r)
		var ev sseEvent
		var data []string
		for sc.Scan() {
			line := sc.Text()
			switch {
			case line == "":
				ev.data = strings.Join(data, "\n")
				if (ev.event != "" || len(data) > 0) && !yield(ev) {
					return
				}
				ev, data = sseEvent{}, nil
			case strings.HasPrefix(line, ":"):
			default:
				field, value, _ := strings.Cut(line, ":")
				value = strings.TrimPrefix(value, " ")
				switch field {
				case "event":
					ev.event = value
				case "data":
					data = append(data, value)
				}
			}
		}
		if err := sc.Err(); err != nil && t.Context().Err() == nil {
			t.Logf("reading SSE stream: %v", err)
		}
	}
}

func modernRequest(id int, method string, params map[string]any) map[string]any {
	if params == nil {
		params = map[string]any{}
	}
	params["_meta"] = map[string]any{
		"io.modelcontextprotocol/protocolVersion":    modernVersion,
		"io.modelcontextprotocol/clientInfo":         map[string]any{"name": "testpeers-test", "version": "0.0.1"},
		"io.modelcontextprotocol/clientCapabilities": map[string]any{},
	}
	return map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params}
}

func modernHeaders(method string) map[string]string {
	return map[string]string{"MCP-Protocol-Version": modernVersion, "Mcp-Method": method}
}

func initializeRequest(id int) map[string]any {
	return map[string]any{"jsonrpc": "2.0", "id": id, "method": "initialize", "params": map[string]any{
		"protocolVersion": legacyVersion,
		"capabilities":    map[string]any{},
		"clientInfo":      map[string]any{"name": "testpeers-test", "version": "0.0.1"},
	}}
}

func serverName(t *testing.T, m rpcMessage) string {
	t.Helper()
	info, ok := m.Result["serverInfo"].(map[string]any)
	require.True(t, ok, "result has no serverInfo: %v", m.Result)
	name, _ := info["name"].(string)
	return name
}

func TestTSServerDualEra(t *testing.T) {
	t.Parallel()
	p := testpeers.StartTSServer(t, nil)
	require.True(t, strings.HasPrefix(p.URL, "http://127.0.0.1:"), p.URL)
	require.True(t, strings.HasSuffix(p.URL, "/mcp"), p.URL)
	require.Equal(t, p.Origin+"/mcp", p.URL)
	c := newClient(t)

	t.Run("modern server/discover", func(t *testing.T) {
		resp := post(t, c, p.URL, modernHeaders("server/discover"), modernRequest(1, "server/discover", nil))
		require.Equal(t, http.StatusOK, resp.StatusCode)
		m := readResponse(t, resp, 1)
		require.Nil(t, m.Error)
		require.Contains(t, m.Result["supportedVersions"], modernVersion)
		require.Equal(t, "mcpwasm test peer", m.Result["instructions"])
		caps, _ := m.Result["capabilities"].(map[string]any)
		require.Contains(t, caps, "tools")
		require.Contains(t, caps, "resources")
		meta, _ := m.Result["_meta"].(map[string]any)
		require.Equal(t, map[string]any{"name": "mcpwasm-ts-peer", "version": "1.0.0"}, meta["io.modelcontextprotocol/serverInfo"])
	})

	t.Run("modern tools/call", func(t *testing.T) {
		h := modernHeaders("tools/call")
		h["Mcp-Name"] = "add"
		resp := post(t, c, p.URL, h, modernRequest(2, "tools/call", map[string]any{"name": "add", "arguments": map[string]any{"a": 2, "b": 3}}))
		require.Equal(t, http.StatusOK, resp.StatusCode)
		m := readResponse(t, resp, 2)
		require.Nil(t, m.Error)
		require.Equal(t, map[string]any{"sum": float64(5)}, m.Result["structuredContent"])
	})

	t.Run("legacy initialize", func(t *testing.T) {
		resp := post(t, c, p.URL, nil, initializeRequest(1))
		require.Equal(t, http.StatusOK, resp.StatusCode)
		sid := resp.Header.Get("Mcp-Session-Id")
		require.NotEmpty(t, sid)
		m := readResponse(t, resp, 1)
		require.Nil(t, m.Error)
		require.Equal(t, legacyVersion, m.Result["protocolVersion"])
		require.Equal(t, "mcpwasm-ts-peer", serverName(t, m))

		h := map[string]string{"Mcp-Session-Id": sid, "MCP-Protocol-Version": legacyVersion}
		resp = post(t, c, p.URL, h, map[string]any{"jsonrpc": "2.0", "method": "notifications/initialized"})
		require.Equal(t, http.StatusAccepted, resp.StatusCode)
		resp = post(t, c, p.URL, h, map[string]any{"jsonrpc": "2.0", "id": 2, "method": "ping"})
		require.Equal(t, http.StatusOK, resp.StatusCode)
		require.Nil(t, readResponse(t, resp, 2).Error)

		req, err := http.NewRequestWithContext(t.Context(), http.MethodDelete, p.URL, nil)
		require.NoError(t, err)
		req.Header.Set("Mcp-Session-Id", sid)
		req.Header.Set("MCP-Protocol-Version", legacyVersion)
		del, err := c.Do(req)
		require.NoError(t, err)
		_ = del.Body.Close()
		require.Equal(t, http.StatusOK, del.StatusCode)
	})
}

func TestTSServerSingleEra(t *testing.T) {
	t.Parallel()
	c := newClient(t)

	t.Run("modern only rejects initialize", func(t *testing.T) {
		p := testpeers.StartTSServer(t, &testpeers.TSServerOptions{Era: "modern", JSONResponse: true})
		resp := post(t, c, p.URL, nil, initializeRequest(1))
		require.Equal(t, http.StatusBadRequest, resp.StatusCode)
		m := readResponse(t, resp, 1)
		require.NotNil(t, m.Error)
		require.Equal(t, -32022, m.Error.Code) // UnsupportedProtocolVersion
	})

	t.Run("legacy only rejects server/discover", func(t *testing.T) {
		p := testpeers.StartTSServer(t, &testpeers.TSServerOptions{Era: "legacy", JSONResponse: true})
		resp := post(t, c, p.URL, modernHeaders("server/discover"), modernRequest(1, "server/discover", nil))
		require.Equal(t, http.StatusBadRequest, resp.StatusCode)

		resp = post(t, c, p.URL, nil, initializeRequest(2))
		require.Equal(t, http.StatusOK, resp.StatusCode)
		require.True(t, strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json"))
		require.Equal(t, legacyVersion, readResponse(t, resp, 2).Result["protocolVersion"])
	})
}

func TestEverythingStreamableHTTP(t *testing.T) {
	t.Parallel()
	p := testpeers.StartEverything(t, "streamableHttp")
	require.Equal(t, p.Origin+"/mcp", p.URL)
	c := newClient(t)

	resp := post(t, c, p.URL, nil, initializeRequest(1))
	require.Equal(t, http.StatusOK, resp.StatusCode)
	require.NotEmpty(t, resp.Header.Get("Mcp-Session-Id"))
	m := readResponse(t, resp, 1)
	require.Nil(t, m.Error)
	require.Equal(t, legacyVersion, m.Result["protocolVersion"])
	require.Equal(t, "mcp-servers/everything", serverName(t, m))
}

func TestEverythingSSE(t *testing.T) {
	t.Parallel()
	p := testpeers.StartEverything(t, "sse")
	require.Equal(t, p.Origin+"/sse", p.URL)

	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, p.URL, nil)
	require.NoError(t, err)
	req.Header.Set("Accept", "text/event-stream")
	resp, err := newClient(t).Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
	require.True(t, strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream"))

	var first sseEvent
	for ev := range sseEvents(t, resp.Body) {
		first = ev
		break
	}
	require.Equal(t, "endpoint", first.event)
	require.True(t, strings.HasPrefix(first.data, "/message?sessionId="), first.data)
}

func TestPeerStop(t *testing.T) {
	t.Parallel()
	p := testpeers.StartTSServer(t, &testpeers.TSServerOptions{Verbose: true})
	c := newClient(t)
	resp := post(t, c, p.URL, modernHeaders("server/discover"), modernRequest(1, "server/discover", nil))
	require.Equal(t, http.StatusOK, resp.StatusCode)
	_ = resp.Body.Close()
	require.Contains(t, p.Stderr(), "server/discover") // --verbose logs requests

	start := time.Now()
	p.Stop()
	require.Less(t, time.Since(start), 5*time.Second, "the server should exit promptly when its stdin closes")
	p.Stop() // idempotent

	data, err := json.Marshal(modernRequest(2, "server/discover", nil))
	require.NoError(t, err)
	req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, p.URL, bytes.NewReader(data))
	require.NoError(t, err)
	_, err = c.Do(req)
	require.Error(t, err, "the server is gone")
}

func TestNodeBinaries(t *testing.T) {
	t.Parallel()
	require.NotEmpty(t, testpeers.NodeBinary(t))
	require.FileExists(t, testpeers.Node22Binary(t))
	require.FileExists(t, testpeers.RepoRoot(t)+"/go.mod")
}
