package main

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	"github.com/mcpwasm/mcpwasm/auth"
	"github.com/mcpwasm/mcpwasm/core"
	"github.com/mcpwasm/mcpwasm/transport/fetch"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m,
		goleak.IgnoreTopFunction("net/http.(*persistConn).readLoop"),
		goleak.IgnoreTopFunction("net/http.(*persistConn).writeLoop"),
		goleak.IgnoreTopFunction("internal/poll.runtime_pollWait"),
	)
}

// start serves the three origins in process.
func start(t *testing.T, consent bool) *servers {
	t.Helper()
	var hss [3]*httptest.Server
	for i := range hss {
		hss[i] = httptest.NewUnstartedServer(nil)
	}
	s := newServers(
		"http://"+hss[0].Listener.Addr().String(),
		"http://"+hss[1].Listener.Addr().String(),
		"http://"+hss[2].Listener.Addr().String(),
		consent, nil)
	for i, h := range []http.Handler{s.mcpHandler(), s.asHandler(), s.otherHandler()} {
		hss[i].Config.Handler = h
		hss[i].Start()
	}
	t.Cleanup(func() {
		s.close()
		for _, hs := range hss {
			hs.CloseClientConnections()
			hs.Close()
		}
	})
	return s
}

func (s *servers) observed(t *testing.T) (st struct {
	Authorizations, Registrations int
	Grants                        []string
	MCPSeen                       []seen `json:"mcpSeen"`
	OtherSeen                     []seen `json:"otherSeen"`
}) {
	t.Helper()
	resp, err := http.Get(s.mcpURL + "/_test/state")
	require.NoError(t, err)
	defer resp.Body.Close()
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&st))
	return st
}

func connect(t *testing.T, url string, d fetch.Doer) *core.Session {
	t.Helper()
	tr, err := fetch.New(url, &fetch.Options{HTTP: d})
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	sess, err := core.NewClient(&core.Implementation{Name: "authserve-test", Version: "1"}, nil).Connect(ctx, tr, nil)
	require.NoError(t, err)
	t.Cleanup(func() { sess.Close() })
	res, err := sess.CallTool(ctx, &core.CallToolParams{Name: "add", Arguments: map[string]any{"a": 2, "b": 3}}, nil)
	require.NoError(t, err)
	var out struct{ Sum int }
	require.NoError(t, res.DecodeStructured(&out))
	require.Equal(t, 5, out.Sum)
	return sess
}

func TestHeadlessClients(t *testing.T) {
	tests := []struct {
		path         string
		wantResource string // the resource of the tokens the MCP origin saw
		onOther      bool
	}{
		{"/mcp", "/mcp", false},
		{"/short/mcp", "/short/mcp", false},
		{"/hidden/mcp", "/hidden/mcp", false}, // natively WWW-Authenticate is readable
		{"/mcp/out", "/mcp", true},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			s := start(t, false)
			tr := &http.Transport{}
			t.Cleanup(tr.CloseIdleConnections)
			inner := fetch.NetHTTP(&http.Client{Transport: tr})
			connect(t, s.mcpURL+tt.path, auth.NewDoer(inner, &auth.Options{UserAgent: auth.Headless(inner)}))
			st := s.observed(t)
			assert.Equal(t, 1, st.Authorizations)
			assert.Equal(t, 1, st.Registrations)
			assert.Equal(t, "authorization_code", st.Grants[0])
			withToken := 0
			for _, r := range st.MCPSeen {
				if r.Token != "" {
					withToken++
					assert.Equal(t, s.mcpURL+tt.wantResource, r.Resource, "a token of this resource at %s", r.Path)
				}
			}
			assert.Positive(t, withToken)
			if tt.onOther {
				require.NotEmpty(t, st.OtherSeen)
				for _, r := range st.OtherSeen {
					assert.Empty(t, r.Token, "the other origin received a token at %s", r.Path)
				}
			} else {
				assert.Empty(t, st.OtherSeen)
			}
		})
	}
}

func TestConsent(t *testing.T) {
	s := start(t, true)
	// Register a client and make an authorization request by hand.
	resp, err := http.Post(s.as.issuer+"/register", "application/json", strings.NewReader(`{"redirect_uris":["http://127.0.0.1/cb"]}`))
	require.NoError(t, err)
	var reg struct {
		ClientID string `json:"client_id"`
	}
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&reg))
	resp.Body.Close()
	q := url.Values{
		"response_type": {"code"}, "client_id": {reg.ClientID}, "redirect_uri": {"http://127.0.0.1/cb"},
		"code_challenge": {"x"}, "code_challenge_method": {"S256"}, "state": {"st"}, "resource": {s.mcpURL + "/mcp"},
	}
	noFollow := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	for _, decision := range []string{"allow", "deny"} {
		t.Run(decision, func(t *testing.T) {
			resp, err := noFollow.Get(s.as.issuer + "/authorize?" + q.Encode())
			require.NoError(t, err)
			page, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			require.Equal(t, 200, resp.StatusCode)
			require.Contains(t, string(page), `id="allow"`)
			i := strings.Index(string(page), `name="request" value="`)
			require.Positive(t, i)
			id := string(page[i+len(`name="request" value="`):])
			id = id[:strings.IndexByte(id, '"')]
			resp, err = noFollow.PostForm(s.as.issuer+"/authorize/decision", url.Values{"request": {id}, "decision": {decision}})
			require.NoError(t, err)
			resp.Body.Close()
			require.Equal(t, http.StatusFound, resp.StatusCode)
			cb, err := url.Parse(resp.Header.Get("Location"))
			require.NoError(t, err)
			assert.Equal(t, "st", cb.Query().Get("state"))
			assert.Equal(t, s.as.issuer, cb.Query().Get("iss"))
			if decision == "allow" {
				assert.NotEmpty(t, cb.Query().Get("code"))
			} else {
				assert.Equal(t, "access_denied", cb.Query().Get("error"))
			}
			// A decision is used once.
			resp, err = noFollow.PostForm(s.as.issuer+"/authorize/decision", url.Values{"request": {id}, "decision": {"allow"}})
			require.NoError(t, err)
			resp.Body.Close()
			assert.Equal(t, 400, resp.StatusCode)
		})
	}
}
