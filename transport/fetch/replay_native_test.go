//go:build !js && !wasip1

package fetch_test

import (
	"bufio"
	"context"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpwasm/mcpwasm/transport/fetch"
)

// idleDropServer answers every request on a connection with a kept-alive
// 200, except that the second request it reads on a connection is dropped:
// it closes the connection without answering, as a server does that closes
// an idle connection while a client's request is on its way.
func idleDropServer(t *testing.T) (url string, conns *atomic.Int32) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	conns = new(atomic.Int32)
	done := make(chan struct{})
	t.Cleanup(func() { ln.Close(); <-done })
	go func() {
		defer close(done)
		for i := 0; i < 20; i++ { // bounded: the test needs a handful
			c, err := ln.Accept()
			if err != nil {
				return
			}
			conns.Add(1)
			go func(c net.Conn) {
				defer c.Close()
				c.SetDeadline(time.Now().Add(10 * time.Second))
				br := bufio.NewReader(c)
				for n := 1; ; n++ {
					req, err := http.ReadRequest(br)
					if err != nil {
						return
					}
					body, _ := io.ReadAll(req.Body)
					if n == 2 {
						return // dropped: closed without an answer
					}
					answer := "echo:" + string(body)
					io.WriteString(c, "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: "+strconv.Itoa(len(answer))+"\r\n\r\n"+answer)
				}
			}(c)
		}
	}()
	return "http://" + ln.Addr().String() + "/mcp", conns
}

func TestNetHTTPResendsAPostOnADroppedKeptAliveConnection(t *testing.T) {
	url, conns := idleDropServer(t)
	d := fetch.NetHTTP(nil)
	ctx := context.Background()
	post := func(body string) string {
		t.Helper()
		resp, err := d.Do(ctx, &fetch.Request{Method: http.MethodPost, URL: url, Header: fetch.Header{"content-type": {"application/json"}}, Body: []byte(body)})
		require.NoError(t, err, "POST %s", body)
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		require.NoError(t, err)
		return string(b)
	}
	assert.Equal(t, "echo:one", post("one"))
	// The second POST goes out on the kept-alive connection, which the
	// server drops: it is sent again on a new connection, body and all.
	assert.Equal(t, "echo:two", post("two"))
	assert.Equal(t, int32(2), conns.Load(), "one new connection for the resent request")
}

func TestReplayable(t *testing.T) {
	req, err := http.NewRequest(http.MethodPost, "http://127.0.0.1/", strings.NewReader("x"))
	require.NoError(t, err)
	fetch.Replayable(req)
	v, ok := req.Header["Idempotency-Key"]
	assert.True(t, ok)
	assert.Nil(t, v, "present without a value: nothing goes on the wire")
	var sb strings.Builder
	require.NoError(t, req.Header.Write(&sb))
	assert.NotContains(t, strings.ToLower(sb.String()), "idempotency")

	req.Header.Set("Idempotency-Key", "k1")
	fetch.Replayable(req)
	assert.Equal(t, "k1", req.Header.Get("Idempotency-Key"), "a caller's key is kept")
}
