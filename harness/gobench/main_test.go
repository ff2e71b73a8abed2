//go:build unix

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpwasm/mcpwasm/harness/demoserver"
)

// runClient runs the client subcommand and decodes its RESULT line.
func runClient(t *testing.T, args ...string) (result, error) {
	t.Helper()
	var out bytes.Buffer
	if err := client(args, &out); err != nil {
		return result{}, err
	}
	line, ok := strings.CutPrefix(strings.TrimSpace(out.String()), "RESULT ")
	require.True(t, ok, "output %q has no RESULT line", out.String())
	var r result
	require.NoError(t, json.Unmarshal([]byte(line), &r))
	return r, nil
}

// TestClientRound runs a short round of each client in each era against the
// official Go SDK server and checks what the round reports.
func TestClientRound(t *testing.T) {
	for _, jsonAnswers := range []bool{true, false} {
		srv := demoserver.New(&demoserver.Options{Modern: true, JSONResponse: jsonAnswers})
		hs := httptest.NewServer(srv.Handler())
		t.Cleanup(func() { hs.Close(); srv.Close() })
		for _, impl := range []string{"mcpwasm", "gosdk", "bare", "raw"} {
			for _, tc := range []struct{ era, version string }{{"legacy", legacyVersion}, {"modern", modernVersion}} {
				t.Run(impl+"/"+tc.era, func(t *testing.T) {
					r, err := runClient(t, "-impl", impl, "-era", tc.era, "-url", hs.URL+demoserver.MCPPath, "-calls", "20", "-warmup", "2")
					require.NoError(t, err)
					assert.Equal(t, impl, r.Client)
					assert.Equal(t, tc.version, r.Version)
					assert.Equal(t, 20, r.Calls)
					assert.Positive(t, r.Rate)
					assert.Positive(t, r.CPUUs)
					assert.Contains(t, r.Marks, "listed")
				})
			}
		}
	}
}

// TestClientRoundWrongAnswer: a server whose echo tool answers something else
// fails the round instead of being measured.
func TestClientRoundWrongAnswer(t *testing.T) {
	s := mcp.NewServer(&mcp.Implementation{Name: "wrong-echo", Version: "1"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "echo"}, func(context.Context, *mcp.CallToolRequest, struct {
		Text string `json:"text"`
	}) (*mcp.CallToolResult, any, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "not the text"}}}, nil, nil
	})
	hs := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil))
	t.Cleanup(hs.Close)
	for _, impl := range []string{"mcpwasm", "gosdk", "bare", "raw"} {
		t.Run(impl, func(t *testing.T) {
			_, err := runClient(t, "-impl", impl, "-era", "legacy", "-url", hs.URL, "-calls", "5", "-warmup", "0")
			require.Error(t, err)
			assert.Contains(t, err.Error(), `echo answered "not the text"`)
		})
	}
}

// TestClientFlags: bad flags are refused before anything is measured.
func TestClientFlags(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"unknown impl", []string{"-impl", "other", "-url", "http://127.0.0.1:1/mcp"}, `unknown -impl "other"`},
		{"unknown era", []string{"-impl", "gosdk", "-era", "future", "-url", "http://127.0.0.1:1/mcp"}, `unknown era "future"`},
		{"no url", []string{"-impl", "gosdk"}, "need -url"},
		{"no calls", []string{"-impl", "gosdk", "-url", "http://127.0.0.1:1/mcp", "-calls", "0"}, "need -url"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := runClient(t, tc.args...)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
}

// TestRawAnswerParts: the raw client's reading takes only whole, expected
// answers and says what else it got.
func TestRawAnswerParts(t *testing.T) {
	t.Run("head", func(t *testing.T) {
		for _, tc := range []struct {
			name, head string
			n          int
			chunked    bool
			err        string
		}{
			{"length", "HTTP/1.1 200 OK\r\ncontent-length: 12", 12, false, ""},
			{"chunks", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked", -1, true, ""},
			{"status", "HTTP/1.1 404 Not Found\r\nContent-Length: 3", 0, false, "404"},
			{"close", "HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 3", 0, false, "closes the connection"},
			{"neither", "HTTP/1.1 200 OK\r\nContent-Type: text/plain", 0, false, "neither"},
			{"bad length", "HTTP/1.1 200 OK\r\nContent-Length: x", 0, false, "Content-Length"},
		} {
			t.Run(tc.name, func(t *testing.T) {
				n, chunked, err := rawHead([]byte(tc.head))
				if tc.err != "" {
					require.Error(t, err)
					assert.Contains(t, err.Error(), tc.err)
					return
				}
				require.NoError(t, err)
				assert.Equal(t, tc.n, n)
				assert.Equal(t, tc.chunked, chunked)
			})
		}
	})
	t.Run("chunks", func(t *testing.T) {
		whole := "5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n"
		for i := range len(whole) {
			p := []byte(whole[:i])
			_, done, err := dechunk(p)
			require.NoError(t, err, "prefix %q", whole[:i])
			assert.False(t, done, "prefix %q", whole[:i])
			assert.Equal(t, whole[:i], string(p), "a prefix is left as it was")
		}
		body, done, err := dechunk([]byte(whole))
		require.NoError(t, err)
		assert.True(t, done)
		assert.Equal(t, "hello world", string(body))
		_, _, err = dechunk([]byte("zz\r\n"))
		assert.ErrorContains(t, err, "chunk size")
	})
	t.Run("text", func(t *testing.T) {
		got, err := rawEchoText([]byte(`{"jsonrpc":"2.0","id":12,"result":{"content":[{"type":"text","text":"a\"b"}]}}`), 12)
		require.NoError(t, err)
		assert.Equal(t, `a\"b`, got)
		_, err = rawEchoText([]byte(`{"jsonrpc":"2.0","id":123,"result":{}}`), 12)
		assert.ErrorContains(t, err, "no answer to request 12")
		_, err = rawEchoText([]byte(`{"jsonrpc":"2.0","id":12,"error":{"code":1,"message":"no"}}`), 12)
		assert.ErrorContains(t, err, "not a result")
	})
}
