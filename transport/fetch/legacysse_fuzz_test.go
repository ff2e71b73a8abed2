package fetch_test

import (
	"context"
	"io"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/mcpwasm/mcpwasm/jsonrpc"
	"github.com/mcpwasm/mcpwasm/transport/fetch"
)

// sseStreamDoer answers the HTTP+SSE GET with a fixed stream and records
// where the messages are POSTed.
type sseStreamDoer struct {
	stream []byte
	mu     sync.Mutex
	posts  []string
}

func (d *sseStreamDoer) Do(_ context.Context, r *fetch.Request) (*fetch.Response, error) {
	if r.Method == "GET" {
		return &fetch.Response{StatusCode: 200, Header: fetch.Header{"content-type": {"text/event-stream"}},
			Body: io.NopCloser(strings.NewReader(string(d.stream)))}, nil
	}
	d.mu.Lock()
	d.posts = append(d.posts, r.URL)
	d.mu.Unlock()
	return &fetch.Response{StatusCode: 202, Header: fetch.Header{}, Body: io.NopCloser(strings.NewReader(""))}, nil
}

// FuzzLegacyEndpointEvent: the 2024-11-05 HTTP+SSE stream, whose endpoint
// event names where messages go. Whatever the stream holds, the client
// never panics, and a message is only ever POSTed to the server's own
// origin (credentials must not follow a hostile endpoint elsewhere).
func FuzzLegacyEndpointEvent(f *testing.F) {
	for _, s := range []string{
		"event: endpoint\ndata: /messages?sessionId=abc\n\n",
		"event: endpoint\r\ndata: http://127.0.0.1:1/messages\r\n\r\n",
		"event: endpoint\ndata: https://evil.example/steal\n\n",
		"event: endpoint\ndata: //evil.example/x\n\n", "event: endpoint\ndata: \\\\evil.example\\x\n\n",
		": comment\n\nevent: endpoint\ndata: /m\ndata: /n\n\nevent: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"x\"}\n\n",
		"event: endpoint\ndata: %zz\n\n", "event: endpoint\n\n", "data: x\n\n",
	} {
		f.Add([]byte(s))
	}
	const base = "http://127.0.0.1:1/sse"
	bu, _ := url.Parse(base)
	f.Fuzz(func(t *testing.T, stream []byte) {
		d := &sseStreamDoer{stream: stream}
		tr, err := fetch.New(base, &fetch.Options{Mode: fetch.ModeSSE, HTTP: d, MaxMessageSize: 1 << 16})
		require.NoError(t, err)
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		conn, err := tr.Connect(ctx)
		require.NoError(t, err)
		defer conn.Close()
		_ = conn.Send(ctx, &jsonrpc.Request{ID: jsonrpc.Int64ID(1), Method: "ping"}, nil)
		d.mu.Lock()
		defer d.mu.Unlock()
		for _, p := range d.posts {
			u, err := url.Parse(p)
			require.NoError(t, err, p)
			require.Equal(t, bu.Scheme, u.Scheme, p)
			require.Equal(t, bu.Host, u.Host, p)
		}
	})
}
