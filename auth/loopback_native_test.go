//go:build !js && !wasip1

package auth_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpwasm/mcpwasm/auth"
)

func TestLoopbackCallback(t *testing.T) {
	as := newTestAS(t)
	rs := newTestRS(t, as)
	browser := &http.Client{Transport: &http.Transport{}}
	t.Cleanup(browser.CloseIdleConnections)
	var opened []string
	lb, err := auth.NewLoopbackCallback(&auth.LoopbackOptions{Open: func(ctx context.Context, authURL string) error {
		opened = append(opened, authURL)
		// The "browser": follows the authorization server's redirect to
		// the loopback listener, in the background like a real one.
		go func() {
			req, _ := http.NewRequestWithContext(ctx, "GET", authURL, nil)
			if resp, err := browser.Do(req); err == nil {
				resp.Body.Close()
			}
		}()
		return nil
	}})
	require.NoError(t, err)
	defer lb.Close()
	assert.True(t, strings.HasPrefix(lb.RedirectURI(), "http://127.0.0.1:"), lb.RedirectURI())

	d := auth.NewDoer(newInner(t), &auth.Options{UserAgent: lb})
	status, _ := get(t, d, rs.URL+"/mcp")
	assert.Equal(t, 200, status)
	require.Len(t, opened, 1)
	assert.Contains(t, opened[0], as.URL+"/authorize?")

	// A response nobody waits for is refused.
	resp, err := browser.Get(lb.RedirectURI() + "?code=x&state=unknown")
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusBadRequest, resp.StatusCode)
}
