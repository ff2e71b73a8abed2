//go:build !js && !wasip1

package fetch

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"strings"
)

// DefaultDoer returns the platform's HTTP implementation (the GOOS=js
// build uses the JavaScript fetch). Here: plain-HTTP requests (http://
// URLs no proxy applies to) go over HTTP/1.1 connections of the Doer's
// own, written and read on the caller's goroutine (on Linux with raw
// system calls: docs/architecture.md, "Socket reads and writes"); https,
// proxied URLs and redirects go to net/http's default transport, as
// [NetHTTP](nil). Each call returns a new Doer with its own connections;
// it is safe for concurrent use.
func DefaultDoer() Doer { return newH1Doer() }

// NetHTTP adapts an *http.Client (nil means a default one) to Doer.
func NetHTTP(c *http.Client) Doer {
	if c == nil {
		c = &http.Client{}
	}
	return &netDoer{client: c}
}

type netDoer struct{ client *http.Client }

// Replayable lets net/http send req again on a new connection when a kept-
// alive connection it reused turns out to have been closed by the server
// before any of the response came back (the server closed it as idle while
// the request was on its way: "connection reset by peer", EOF). net/http
// does that for GET but not for POST unless the request says it is
// idempotent; an Idempotency-Key header with no value says so without
// sending anything on the wire. Browsers' fetch retries POSTs the same way,
// so a session does not lose a call to the race. req's body must be
// replayable (http.NewRequest with a *bytes.Reader sets GetBody); a header
// the caller set is kept.
func Replayable(req *http.Request) {
	if _, ok := req.Header["Idempotency-Key"]; !ok {
		req.Header["Idempotency-Key"] = nil
	}
}

func (d *netDoer) Do(ctx context.Context, r *Request) (*Response, error) {
	var body io.Reader // a nil *bytes.Reader would not be a nil io.Reader
	if r.Body != nil {
		body = bytes.NewReader(r.Body)
	}
	req, err := http.NewRequestWithContext(ctx, r.Method, r.URL, body)
	if err != nil {
		return nil, err
	}
	for k, vs := range r.Header {
		// Keep the header name as given: net/http canonicalises it anyway
		// on the wire for HTTP/1.1, and names are case-insensitive.
		for _, v := range vs {
			req.Header.Add(k, v)
		}
	}
	Replayable(req)
	c := d.client
	if r.NoRedirect {
		nc := *d.client
		nc.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
		c = &nc
	}
	resp, err := c.Do(req)
	if err != nil {
		return nil, err
	}
	return &Response{StatusCode: resp.StatusCode, Header: lowerHeader(resp.Header), Body: resp.Body}, nil
}

// lowerHeader is net/http's header with the lower-case names Header keeps.
func lowerHeader(hh http.Header) Header {
	h := make(Header, len(hh))
	for k, vs := range hh {
		h[strings.ToLower(k)] = vs
	}
	return h
}
