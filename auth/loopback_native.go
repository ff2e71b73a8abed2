//go:build !js && !wasip1

package auth

import (
	"github.com/mcpwasm/mcpwasm/internal/errf"
	"github.com/mcpwasm/mcpwasm/internal/urlx"

	"context"
	"errors"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
)

// LoopbackOptions configure a LoopbackCallback.
type LoopbackOptions struct {
	// Port is the port to listen on at 127.0.0.1. Default 0: a free port
	// chosen when the LoopbackCallback is made (authorization servers must
	// accept any port for loopback redirect URIs, RFC 8252 §7.3).
	Port int
	// Path is the callback path. Default "/callback".
	Path string
	// Open shows the authorization URL to the user (opens a browser, prints
	// it, …). Required. It must not block until the user is done.
	Open func(ctx context.Context, authURL string) error
}

// LoopbackCallback is a UserAgent for native programs with a user
// (RFC 8252 §7.3): it hands the authorization URL to Options.Open and
// receives the authorization server's redirect on a 127.0.0.1 listener. It
// opens nothing itself. It is safe for concurrent use; Close stops the
// listener.
type LoopbackCallback struct {
	open     func(context.Context, string) error
	redirect string
	path     string
	srv      *http.Server
	served   chan struct{}

	mu      sync.Mutex
	pending map[string]chan string // by state
}

// NewLoopbackCallback starts listening on 127.0.0.1.
func NewLoopbackCallback(opts *LoopbackOptions) (*LoopbackCallback, error) {
	if opts == nil || opts.Open == nil {
		return nil, errors.New("auth: LoopbackOptions.Open is required")
	}
	path := opts.Path
	if path == "" {
		path = "/callback"
	}
	if path[0] != '/' {
		return nil, errf.Errorf("auth: callback path %q must start with /", path)
	}
	ln, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(opts.Port)))
	if err != nil {
		return nil, errf.Errorf("auth: loopback listener: %w", err)
	}
	l := &LoopbackCallback{
		open:     opts.Open,
		path:     path,
		redirect: "http://" + ln.Addr().String() + path,
		served:   make(chan struct{}),
		pending:  map[string]chan string{},
	}
	l.srv = &http.Server{Handler: http.HandlerFunc(l.serve), ReadHeaderTimeout: 10 * time.Second}
	go func() {
		defer close(l.served)
		_ = l.srv.Serve(ln)
	}()
	return l, nil
}

// RedirectURI implements UserAgent.
func (l *LoopbackCallback) RedirectURI() string { return l.redirect }

// Authorize implements UserAgent: it waits for the redirect that carries
// authURL's state.
func (l *LoopbackCallback) Authorize(ctx context.Context, authURL string) (string, error) {
	u, err := urlx.Parse(authURL)
	if err != nil {
		return "", errf.Errorf("auth: invalid authorization URL: %w", err)
	}
	state := u.Query().Get("state")
	ch := make(chan string, 1)
	l.mu.Lock()
	if _, dup := l.pending[state]; dup {
		l.mu.Unlock()
		return "", errors.New("auth: an authorization with this state is already waiting")
	}
	l.pending[state] = ch
	l.mu.Unlock()
	defer func() {
		l.mu.Lock()
		delete(l.pending, state)
		l.mu.Unlock()
	}()
	if err := l.open(ctx, authURL); err != nil {
		return "", errf.Errorf("auth: opening the authorization URL: %w", err)
	}
	select {
	case cb := <-ch:
		return cb, nil
	case <-ctx.Done():
		return "", ctx.Err()
	}
}

func (l *LoopbackCallback) serve(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != l.path || r.Method != http.MethodGet {
		http.NotFound(w, r)
		return
	}
	l.mu.Lock()
	ch := l.pending[r.URL.Query().Get("state")]
	l.mu.Unlock()
	if ch == nil {
		http.Error(w, "No authorization is waiting for this response.", http.StatusBadRequest)
		return
	}
	select {
	case ch <- strings.TrimSuffix(l.redirect, l.path) + r.URL.RequestURI():
	default: // already answered
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	_, _ = w.Write([]byte("Authorization received. You can close this window.\n"))
}

// Close stops the listener; waiting authorizations end with their context.
func (l *LoopbackCallback) Close() error {
	err := l.srv.Close()
	<-l.served
	return err
}
