package fetch_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/mcpwasm/mcpwasm/core"
	"github.com/mcpwasm/mcpwasm/internal/rawjson"
	"github.com/mcpwasm/mcpwasm/transport/fetch"
)

// BenchmarkCallTool measures one tools/call through the whole client side
// (session pipeline and Streamable HTTP transport) against a canned modern
// server on 127.0.0.1, for allocation and CPU profiles of the client path.
func BenchmarkCallTool(b *testing.B) {
	for _, sse := range []bool{false, true} {
		name := "json"
		if sse {
			name = "sse"
		}
		b.Run(name, func(b *testing.B) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				body, _ := io.ReadAll(r.Body)
				var req struct {
					ID     rawjson.RawMessage `json:"id"`
					Method string             `json:"method"`
				}
				_ = json.Unmarshal(body, &req)
				var out string
				switch req.Method {
				case core.MethodDiscover:
					out = `{"jsonrpc":"2.0","id":` + string(req.ID) + `,"result":{"supportedVersions":["2026-07-28"],"capabilities":{"tools":{}},"serverInfo":{"name":"b","version":"1"}}}`
				default:
					out = `{"jsonrpc":"2.0","id":` + string(req.ID) + `,"result":{"content":[{"type":"text","text":"ok"}]}}`
				}
				if sse {
					w.Header().Set("Content-Type", "text/event-stream")
					_, _ = io.WriteString(w, "data: "+strings.ReplaceAll(out, "\n", "")+"\n\n")
					return
				}
				w.Header().Set("Content-Type", "application/json")
				_, _ = io.WriteString(w, out)
			}))
			defer srv.Close()
			tr, err := fetch.New(srv.URL, nil)
			if err != nil {
				b.Fatal(err)
			}
			c := core.NewClient(&core.Implementation{Name: "bench", Version: "1"}, nil)
			ctx := context.Background()
			s, err := c.Connect(ctx, tr, &core.ConnectOptions{ProtocolVersions: []string{"2026-07-28"}})
			if err != nil {
				b.Fatal(err)
			}
			defer s.Close()
			params := rawjson.RawMessage(`{"name":"echo","arguments":{"text":"hello"}}`)
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if _, err := s.Request(ctx, core.MethodCallTool, params, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// cannedDoer answers like a minimal modern server without any I/O, so a
// benchmark sees only the client's own work.
type cannedDoer struct{}

func (cannedDoer) Do(_ context.Context, req *fetch.Request) (*fetch.Response, error) {
	var m struct {
		ID     rawjson.RawMessage `json:"id"`
		Method string             `json:"method"`
	}
	_ = json.Unmarshal(req.Body, &m)
	var out string
	switch m.Method {
	case core.MethodDiscover:
		out = `{"jsonrpc":"2.0","id":` + string(m.ID) + `,"result":{"supportedVersions":["2026-07-28"],"capabilities":{"tools":{}},"serverInfo":{"name":"b","version":"1"}}}`
	default:
		out = `{"jsonrpc":"2.0","id":` + string(m.ID) + `,"result":{"content":[{"type":"text","text":"ok"}]}}`
	}
	return &fetch.Response{StatusCode: 200, Header: fetch.Header{"content-type": {"application/json"}}, Body: io.NopCloser(strings.NewReader(out))}, nil
}

// BenchmarkCallToolCanned is BenchmarkCallTool without a network: the
// client side alone (session pipeline and transport).
func BenchmarkCallToolCanned(b *testing.B) {
	tr, err := fetch.New("http://127.0.0.1:9/mcp", &fetch.Options{HTTP: cannedDoer{}})
	if err != nil {
		b.Fatal(err)
	}
	benchCalls(b, tr)
}

// benchCalls connects a modern session through tr and times echo calls.
func benchCalls(b *testing.B, tr *fetch.Transport) {
	b.Helper()
	ctx := context.Background()
	s, err := core.NewClient(&core.Implementation{Name: "bench", Version: "1"}, nil).Connect(ctx, tr, &core.ConnectOptions{ProtocolVersions: []string{"2026-07-28"}})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	params := rawjson.RawMessage(`{"name":"echo","arguments":{"text":"hello"}}`)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := s.Request(ctx, core.MethodCallTool, params, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCallToolWire is BenchmarkCallTool against a server that writes
// canned bytes on 127.0.0.1 (no net/http on the server side), so that the
// figure is the client's whole path, its HTTP/1.1 reading and writing
// included.
func BenchmarkCallToolWire(b *testing.B) {
	tr, err := fetch.New("http://"+cannedServer(b)+"/mcp", nil)
	if err != nil {
		b.Fatal(err)
	}
	benchCalls(b, tr)
}

// cannedServer starts a listener on 127.0.0.1 whose connections
// answerCanned serves, until the benchmark ends, and returns its address.
func cannedServer(b *testing.B) string {
	b.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go answerCanned(c)
		}
	}()
	return ln.Addr().String()
}

// answerCanned answers each request on c with a canned modern answer
// carrying the request's id, until c ends.
func answerCanned(c net.Conn) {
	defer c.Close()
	br := bufio.NewReader(c)
	for {
		req, err := http.ReadRequest(br)
		if err != nil {
			return
		}
		body, _ := io.ReadAll(req.Body)
		var m struct {
			ID     rawjson.RawMessage `json:"id"`
			Method string             `json:"method"`
		}
		_ = json.Unmarshal(body, &m)
		out := `{"jsonrpc":"2.0","id":` + string(m.ID) + `,"result":{"content":[{"type":"text","text":"ok"}]}}`
		if m.Method == core.MethodDiscover {
			out = `{"jsonrpc":"2.0","id":` + string(m.ID) + `,"result":{"supportedVersions":["2026-07-28"],"capabilities":{"tools":{}},"serverInfo":{"name":"b","version":"1"}}}`
		}
		if _, err := io.WriteString(c, "HTTP/1.1 200 OK\r\nCache-Control: no-cache, no-transform\r\nContent-Type: application/json\r\nDate: Thu, 03 Dec 2026 16:22:40 GMT\r\nContent-Length: "+strconv.Itoa(len(out))+"\r\n\r\n"+out); err != nil {
			return
		}
	}
}

// BenchmarkBareWire is the floor of BenchmarkCallToolWire: a hand-written
// JSON-RPC loop over one kept-alive connection to the same canned server
// (the in-process twin of harness/gobench's bare client: net/http's
// ReadResponse, encoding/json), so that the difference of the two is what
// the client's session and transport cost beyond it.
func BenchmarkBareWire(b *testing.B) {
	conn, err := net.Dial("tcp", cannedServer(b))
	if err != nil {
		b.Fatal(err)
	}
	defer conn.Close()
	br := bufio.NewReader(conn)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		args, _ := json.Marshal(map[string]string{"text": "hello"})
		body := []byte(`{"jsonrpc":"2.0","id":` + strconv.Itoa(i+2) + `,"method":"tools/call","params":{"name":"echo","arguments":` + string(args) + `}}`)
		var w bytes.Buffer
		w.WriteString("POST /mcp HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nMcp-Protocol-Version: 2026-07-28\r\nMcp-Method: tools/call\r\nMcp-Name: echo\r\nContent-Length: " + strconv.Itoa(len(body)) + "\r\n\r\n")
		w.Write(body)
		if _, err := conn.Write(w.Bytes()); err != nil {
			b.Fatal(err)
		}
		resp, err := http.ReadResponse(br, nil)
		if err != nil {
			b.Fatal(err)
		}
		data, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		var m struct {
			ID     *int            `json:"id"`
			Result json.RawMessage `json:"result"`
		}
		if err := json.Unmarshal(data, &m); err != nil {
			b.Fatal(err)
		}
		var r struct {
			Content []struct {
				Text string `json:"text"`
			} `json:"content"`
		}
		if err := json.Unmarshal(m.Result, &r); err != nil || len(r.Content) == 0 || r.Content[0].Text != "ok" {
			b.Fatalf("unexpected answer %s", data)
		}
	}
}
