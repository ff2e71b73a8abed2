//go:build linux

package manager_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	"github.com/mcpwasm/mcpwasm/core"
	"github.com/mcpwasm/mcpwasm/manager"
	"github.com/mcpwasm/mcpwasm/tests/peerproc"
	"github.com/mcpwasm/mcpwasm/transport/fetch"
	"github.com/mcpwasm/mcpwasm/transport/stdio"
)

func TestMain(m *testing.M) {
	defer peerproc.Cleanup()
	goleak.VerifyTestMain(m,
		goleak.IgnoreTopFunction("net/http.(*persistConn).readLoop"),
		goleak.IgnoreTopFunction("net/http.(*persistConn).writeLoop"),
		goleak.IgnoreTopFunction("internal/poll.runtime_pollWait"),
	)
}

// recorder collects a manager's events.
type recorder struct {
	mu       sync.Mutex
	changes  []manager.Change
	statuses []manager.ServerState
	// with m set: each status with how many of its server's tools the
	// aggregate had when OnStatus ran
	m       *manager.Manager
	toolsAt []string
}

func (r *recorder) options(o *manager.Options) *manager.Options {
	o.OnChange = func(c manager.Change) {
		r.mu.Lock()
		defer r.mu.Unlock()
		r.changes = append(r.changes, c)
	}
	o.OnStatus = func(s manager.ServerState) {
		r.mu.Lock()
		m := r.m
		r.mu.Unlock()
		n := 0
		if m != nil {
			for _, t := range m.Tools() {
				if t.Server == s.Name {
					n++
				}
			}
		}
		r.mu.Lock()
		defer r.mu.Unlock()
		r.statuses = append(r.statuses, s)
		if m != nil {
			r.toolsAt = append(r.toolsAt, fmt.Sprintf("%s %s %d", s.Name, s.Status, n))
		}
	}
	return o
}

func (r *recorder) changesOf(server string) []manager.ChangeKind {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []manager.ChangeKind
	for _, c := range r.changes {
		if c.Server == server {
			out = append(out, c.Kind)
		}
	}
	return out
}

func (r *recorder) statusesOf(server string) []manager.Status {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []manager.Status
	for _, s := range r.statuses {
		if s.Name == server {
			out = append(out, s.Status)
		}
	}
	return out
}

func text(r *core.CallToolResult) string {
	var b strings.Builder
	for _, c := range r.Content {
		if c.Type == "text" {
			b.WriteString(c.Text)
		}
	}
	return b.String()
}

func status(m *manager.Manager, name string) manager.Status {
	s, _ := m.Server(name)
	return s.Status
}

func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	port := l.Addr().(*net.TCPAddr).Port
	require.NoError(t, l.Close())
	return port
}

func nodeServer(t *testing.T, pkg string) (string, string) {
	t.Helper()
	node, err := exec.LookPath("node")
	require.NoError(t, err, "node (Node >= 20) must be on PATH")
	return node, filepath.Join(peerproc.RepoRoot(t), "node_modules", "@modelcontextprotocol", pkg, "dist", "index.js")
}

func TestParseConfig(t *testing.T) {
	cfg, err := manager.ParseConfig([]byte(`{"globalShortcut": "x", "mcpServers": {
		"web": {"url": "https://example.com/mcp", "headers": {"Authorization": "Bearer x"}},
		"legacy": {"type": "sse", "url": "https://example.com/sse"},
		"local": {"command": "npx", "args": ["-y", "server"], "env": {"A": "1"}, "cwd": "/tmp"}
	}}`))
	require.NoError(t, err)
	assert.Equal(t, manager.TransportAuto, cfg.MCPServers["web"].Transport)
	assert.Equal(t, manager.TransportSSE, cfg.MCPServers["legacy"].Transport)
	assert.Equal(t, manager.TransportStdio, cfg.MCPServers["local"].Transport)
	assert.Equal(t, map[string]string{"A": "1"}, cfg.MCPServers["local"].Env)

	bad := []struct{ name, json, want string }{
		{"not json", `{`, "invalid configuration"},
		{"no mcpServers", `{}`, "mcpServers"},
		{"neither url nor command", `{"mcpServers": {"a": {}}}`, "give a url"},
		{"both", `{"mcpServers": {"a": {"url": "x", "command": "y"}}}`, "not both"},
		{"unknown transport", `{"mcpServers": {"a": {"url": "x", "transport": "pigeon"}}}`, "unknown transport"},
		{"unknown member", `{"mcpServers": {"a": {"url": "x", "nonsense": 1}}}`, "nonsense"},
		{"unknown era", `{"mcpServers": {"a": {"url": "x", "era": "stone"}}}`, "era"},
		{"stdio without command", `{"mcpServers": {"a": {"url": "x", "transport": "stdio"}}}`, "needs a command"},
	}
	for _, tc := range bad {
		t.Run(tc.name, func(t *testing.T) {
			_, err := manager.ParseConfig([]byte(tc.json))
			require.ErrorIs(t, err, manager.ErrConfig)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
}

func TestNamespacedName(t *testing.T) {
	tests := []struct{ server, item, sep, want string }{
		{"fs", "read_file", "", "fs__read_file"},
		{"my server", "files.read", "", "my_server__files_read"},
		{"s", "t/ü", "", "s__t__"},
		{"a", "b", "_", "a_b"},
		// the same as the npm package's namespacedName (js/test/manager.test.mjs)
		{strings.Repeat("a", 40), strings.Repeat("b", 40), "", strings.Repeat("a", 40) + "__" + strings.Repeat("b", 13) + "_64ba32b7"},
	}
	for _, tc := range tests {
		t.Run(tc.want, func(t *testing.T) {
			assert.Equal(t, tc.want, manager.NamespacedName(tc.server, tc.item, tc.sep))
		})
	}
}

// TestManyServers runs the TypeScript SDK v2 server, server-everything,
// the Go SDK demo server and two stdio servers (server-filesystem,
// server-memory) behind one manager, next to a server that refuses
// connections.
func TestManyServers(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	tsURL := peerproc.TSServer(t, 0)
	evURL := peerproc.Everything(t, "streamableHttp")
	demo := peerproc.GoSDKServer(t, peerproc.DemoOptions{Modern: true})
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "hello.txt"), []byte("hello from the disk"), 0o600))
	node, fsScript := nodeServer(t, "server-filesystem")
	_, memScript := nodeServer(t, "server-memory")
	memFile := filepath.Join(t.TempDir(), "memory.jsonl")

	var (
		askedMu sync.Mutex
		asked   []string
		stderr  = map[string][]string{}
	)
	rec := &recorder{}
	opts := rec.options(&manager.Options{
		ClientInfo: &core.Implementation{Name: "manager-test", Version: "1.0.0"},
		Reconnect:  &manager.ReconnectPolicy{Delay: 20 * time.Millisecond, MaxDelay: 50 * time.Millisecond, Attempts: 3},
		SamplingHandler: func(_ context.Context, server string, _ *core.CreateMessageRequest) (*core.CreateMessageResult, error) {
			askedMu.Lock()
			asked = append(asked, "sampling:"+server)
			askedMu.Unlock()
			return &core.CreateMessageResult{Role: "assistant", Model: "test-model", Content: core.ContentList{{Type: "text", Text: "reply to " + server}}}, nil
		},
		ElicitationHandler: func(_ context.Context, server string, _ *core.ElicitRequest) (*core.ElicitResult, error) {
			askedMu.Lock()
			asked = append(asked, "elicitation:"+server)
			askedMu.Unlock()
			return &core.ElicitResult{Action: "accept", Content: map[string]any{"name": server, "age": 3}}, nil
		},
		RootsHandler: func(_ context.Context, server string, _ *core.ListRootsRequest) (*core.ListRootsResult, error) {
			return &core.ListRootsResult{Roots: []*core.Root{{URI: "file:///" + server}}}, nil
		},
		Stderr: func(server, line string) {
			askedMu.Lock()
			defer askedMu.Unlock()
			stderr[server] = append(stderr[server], line)
		},
	})
	cfg := &manager.Config{MCPServers: map[string]*manager.ServerConfig{
		"ts":         {URL: tsURL},
		"everything": {URL: evURL, DenyTools: []string{"get-env"}},
		"demo":       {URL: demo + peerproc.MCPPath, AllowTools: []string{"echo", "elicit", "add", "change_tools"}},
		"fs":         {Command: node, Args: []string{fsScript, dir}},
		// the second argument (ignored by the server) tells this process from other tests' ones
		"memory": {Command: node, Args: []string{memScript, memFile}, Env: map[string]string{"MEMORY_FILE_PATH": memFile}},
		"broken": {URL: "http://127.0.0.1:" + strconv.Itoa(freePort(t)) + "/mcp"},
		"off":    {URL: "http://127.0.0.1:1/mcp", Disabled: true},
	}}
	m, err := manager.New(cfg, opts)
	require.NoError(t, err)
	defer m.Close()

	states, err := m.Connect(ctx)
	require.NoError(t, err)
	by := map[string]manager.ServerState{}
	var names []string
	for _, s := range states {
		by[s.Name] = s
		names = append(names, s.Name)
	}
	assert.Equal(t, []string{"broken", "demo", "everything", "fs", "memory", "off", "ts"}, names)
	for _, n := range []string{"ts", "everything", "demo", "fs", "memory"} {
		require.Equal(t, manager.StatusConnected, by[n].Status, "%s: %v", n, by[n].Err)
		assert.NotNil(t, by[n].Session)
		assert.Same(t, by[n].Session, m.Session(n))
	}
	assert.Contains(t, []manager.Status{manager.StatusReconnecting, manager.StatusFailed}, by["broken"].Status)
	assert.Error(t, by["broken"].Err)
	assert.Nil(t, by["broken"].Session)
	assert.Equal(t, manager.StatusClosed, by["off"].Status)
	require.Eventually(t, func() bool { return status(m, "broken") == manager.StatusFailed }, 10*time.Second, 10*time.Millisecond)
	assert.Equal(t, []manager.Status{manager.StatusReconnecting, manager.StatusFailed}, rec.statusesOf("broken"), "bounded attempts")

	t.Run("the aggregate", func(t *testing.T) {
		tools := m.Tools()
		var toolNames []string
		servers := map[string][]string{}
		for _, tl := range tools {
			toolNames = append(toolNames, tl.Name)
			servers[tl.Server] = append(servers[tl.Server], tl.ToolName)
			assert.Regexp(t, `^[A-Za-z0-9_-]{1,64}$`, tl.Name)
			assert.Equal(t, manager.NamespacedName(tl.Server, tl.ToolName, ""), tl.Name, "no collisions here")
		}
		assert.ElementsMatch(t, []string{"add", "change_tools", "echo", "elicit"}, servers["demo"], "allowTools")
		assert.Contains(t, toolNames, "everything__echo")
		assert.NotContains(t, toolNames, "everything__get-env", "denyTools")
		assert.Contains(t, toolNames, "fs__read_text_file")
		assert.Contains(t, toolNames, "memory__read_graph")
		srv := make([]string, 0, len(tools))
		for _, tl := range tools {
			srv = append(srv, tl.Server)
		}
		assert.True(t, slices.IsSorted(srv), "servers in name order")
		add, ok := m.Tool("ts__add")
		require.True(t, ok)
		assert.Equal(t, "add", add.ToolName)
		assert.JSONEq(t, `{"type":"object","properties":{"sum":{"type":"integer"}},"required":["sum"]}`, string(add.OutputSchema))
		var prompts []string
		for _, p := range m.Prompts() {
			prompts = append(prompts, p.Name)
		}
		assert.Contains(t, prompts, "demo__greet")
		assert.Contains(t, prompts, "everything__simple-prompt")
		b, err := json.Marshal(add)
		require.NoError(t, err)
		assert.Contains(t, string(b), `"name":"ts__add"`)
		assert.Contains(t, string(b), `"toolName":"add"`)
	})

	t.Run("calls are routed", func(t *testing.T) {
		call := func(name string, args map[string]any) *core.CallToolResult {
			t.Helper()
			if args == nil {
				args = map[string]any{} // not a typed nil in Arguments: that is JSON null
			}
			r, err := m.CallTool(ctx, &core.CallToolParams{Name: name, Arguments: args}, nil)
			require.NoError(t, err, name)
			return r
		}
		assert.Equal(t, "to ts", text(call("ts__echo", map[string]any{"text": "to ts"})))
		assert.Equal(t, "to demo", text(call("demo__echo", map[string]any{"text": "to demo"})))
		assert.Equal(t, "Echo: to everything", text(call("everything__echo", map[string]any{"message": "to everything"})))
		assert.Equal(t, "hello from the disk", text(call("fs__read_text_file", map[string]any{"path": filepath.Join(dir, "hello.txt")})))
		call("memory__create_entities", map[string]any{"entities": []any{map[string]any{"name": "Ada", "entityType": "person", "observations": []string{"first program"}}}})
		assert.Contains(t, text(call("memory__read_graph", map[string]any{})), "first program")
		var who struct {
			ClientInfo core.Implementation `json:"clientInfo"`
		}
		require.NoError(t, json.Unmarshal([]byte(text(call("ts__whoami", nil))), &who))
		assert.Equal(t, "manager-test", who.ClientInfo.Name)

		_, err := m.CallTool(ctx, &core.CallToolParams{Name: "everything__get-env"}, nil)
		assert.ErrorIs(t, err, manager.ErrUnknownTool)
		_, err = m.CallTool(ctx, &core.CallToolParams{Name: "demo__fail"}, nil)
		assert.ErrorIs(t, err, manager.ErrUnknownTool, "not in allowTools")
		_, err = m.CallTool(ctx, &core.CallToolParams{Name: "broken__echo"}, nil)
		var nc *manager.NotConnectedError
		require.ErrorAs(t, err, &nc)
		assert.Equal(t, manager.StatusFailed, nc.Status)
		assert.ErrorIs(t, err, manager.ErrNotConnected)

		p, err := m.GetPrompt(ctx, &core.GetPromptParams{Name: "demo__greet", Arguments: map[string]string{"name": "Ada"}}, nil)
		require.NoError(t, err)
		assert.Contains(t, p.Messages[0].Content.Text, "Ada")
		r, err := m.ReadResource(ctx, "ts", &core.ReadResourceParams{URI: "test://static/text"}, nil)
		require.NoError(t, err)
		assert.Equal(t, "hello resource", r.Contents[0].Text)
		r, err = m.ReadResource(ctx, "", &core.ReadResourceParams{URI: "test://static/text"}, nil)
		require.NoError(t, err, "found by its URI")
		assert.Equal(t, "test://static/text", r.Contents[0].URI)
		_, err = m.ReadResource(ctx, "", &core.ReadResourceParams{URI: "test://nowhere"}, nil)
		assert.ErrorIs(t, err, manager.ErrUnknownResource)
	})

	t.Run("handlers are told which server asks", func(t *testing.T) {
		askedMu.Lock()
		asked = nil
		askedMu.Unlock()
		r, err := m.CallTool(ctx, &core.CallToolParams{Name: "everything__trigger-sampling-request", Arguments: map[string]any{"prompt": "hi", "maxTokens": 5}}, nil)
		require.NoError(t, err)
		assert.Contains(t, text(r), "reply to everything")
		r, err = m.CallTool(ctx, &core.CallToolParams{Name: "ts__sample", Arguments: map[string]any{"prompt": "hi"}}, nil)
		require.NoError(t, err)
		assert.Equal(t, "test-model: reply to ts", text(r))
		r, err = m.CallTool(ctx, &core.CallToolParams{Name: "demo__elicit"}, nil)
		require.NoError(t, err)
		assert.Contains(t, text(r), `"name":"demo"`)
		r, err = m.CallTool(ctx, &core.CallToolParams{Name: "ts__roots"}, nil)
		require.NoError(t, err)
		assert.JSONEq(t, `["file:///ts"]`, text(r))
		askedMu.Lock()
		assert.Equal(t, []string{"sampling:everything", "sampling:ts", "elicitation:demo"}, asked)
		assert.NotEmpty(t, stderr["fs"], "the stdio server's stderr")
		askedMu.Unlock()
	})

	t.Run("list-changed: one change, the aggregate updated", func(t *testing.T) {
		for _, server := range []string{"ts", "demo"} {
			before := len(rec.changesOf(server))
			count := 0
			for _, tl := range m.Tools() {
				if tl.Server == server {
					count++
				}
			}
			r, err := m.CallTool(ctx, &core.CallToolParams{Name: server + "__change_tools"}, nil)
			require.NoError(t, err)
			added := text(r)
			require.Eventually(t, func() bool { return len(rec.changesOf(server)) > before }, 10*time.Second, 10*time.Millisecond, server)
			// a later round trip on the same server: its notifications before it were handled
			_, err = m.CallTool(ctx, &core.CallToolParams{Name: server + "__echo", Arguments: map[string]any{"text": "sync"}}, nil)
			require.NoError(t, err)
			assert.Equal(t, []manager.ChangeKind{manager.ChangeTools}, rec.changesOf(server)[before:], server)
			after := 0
			for _, tl := range m.Tools() {
				if tl.Server == server {
					after++
				}
			}
			if server == "ts" {
				_, ok := m.Tool("ts__" + added)
				assert.True(t, ok, added)
				assert.Equal(t, count+1, after)
			} else {
				assert.Equal(t, count, after, "demo's allowTools hides the new tool")
			}
		}
	})

	t.Run("add and remove", func(t *testing.T) {
		before := len(rec.changesOf("second"))
		st, err := m.Add(ctx, "second", &manager.ServerConfig{URL: tsURL, AllowTools: []string{"echo"}})
		require.NoError(t, err)
		assert.Equal(t, manager.StatusConnected, st.Status)
		r, err := m.CallTool(ctx, &core.CallToolParams{Name: "second__echo", Arguments: map[string]any{"text": "again"}}, nil)
		require.NoError(t, err)
		assert.Equal(t, "again", text(r))
		_, err = m.Add(ctx, "second", &manager.ServerConfig{URL: tsURL})
		assert.ErrorIs(t, err, manager.ErrServerExists)
		_, err = m.Add(ctx, "bad", &manager.ServerConfig{})
		assert.ErrorIs(t, err, manager.ErrConfig)
		require.NoError(t, m.Remove(ctx, "second"))
		_, ok := m.Server("second")
		assert.False(t, ok)
		_, err = m.CallTool(ctx, &core.CallToolParams{Name: "second__echo"}, nil)
		assert.ErrorIs(t, err, manager.ErrUnknownTool)
		assert.Equal(t, []manager.ChangeKind{manager.ChangeServers, manager.ChangeServers}, rec.changesOf("second")[before:])
		assert.ErrorIs(t, m.Remove(ctx, "second"), manager.ErrUnknownServer)
	})

	t.Run("close ends the stdio servers", func(t *testing.T) {
		pids := map[string]int{}
		for _, n := range []string{"fs", "memory"} {
			// this test's processes only (other packages' tests run the same servers)
			found := processes(t, map[string][]string{"fs": {fsScript, dir}, "memory": {memScript, memFile}}[n]...)
			require.Len(t, found, 1, "%s runs", n)
			pids[n] = found[0]
			st, _ := m.Server(n)
			assert.Equal(t, found[0], st.PID, "%s: the state names its process", n)
		}
		for _, n := range []string{"ts", "everything", "demo"} {
			st, _ := m.Server(n)
			assert.Zero(t, st.PID, "%s is not a process of ours", n)
		}
		require.NoError(t, m.Close())
		for n, pid := range pids {
			assert.ErrorIs(t, syscall.Kill(pid, 0), syscall.ESRCH, "%s (pid %d) was ended", n, pid)
		}
		for _, s := range m.Servers() {
			assert.Equal(t, manager.StatusClosed, s.Status, s.Name)
			assert.Zero(t, s.PID, s.Name)
		}
		_, err := m.Connect(ctx)
		assert.ErrorIs(t, err, manager.ErrClosed)
	})
}

// TestKilledServer stops the Go SDK demo server mid-session and starts it
// again on the same port; the other server keeps working.
func TestKilledServer(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	origin, stop := peerproc.StartDemo(peerproc.DemoOptions{Modern: true})
	stopped := false
	defer func() {
		if !stopped {
			stop()
		}
	}()
	u, err := url.Parse(origin)
	require.NoError(t, err)
	port, err := strconv.Atoi(u.Port())
	require.NoError(t, err)
	tsURL := peerproc.TSServer(t, 0)
	rec := &recorder{}
	m, err := manager.New(&manager.Config{MCPServers: map[string]*manager.ServerConfig{
		"demo": {URL: origin + peerproc.MCPPath},
		"ts":   {URL: tsURL},
	}}, rec.options(&manager.Options{
		HealthCheck: 100 * time.Millisecond,
		Reconnect:   &manager.ReconnectPolicy{Delay: 50 * time.Millisecond, MaxDelay: 200 * time.Millisecond, Attempts: 1000},
	}))
	require.NoError(t, err)
	defer m.Close()
	rec.mu.Lock()
	rec.m = m
	rec.mu.Unlock()
	_, err = m.Connect(ctx)
	require.NoError(t, err)
	_, ok := m.Tool("demo__echo")
	require.True(t, ok)
	demoTools := 0
	for _, tl := range m.Tools() {
		if tl.Server == "demo" {
			demoTools++
		}
	}

	stop()
	stopped = true
	require.Eventually(t, func() bool { return status(m, "demo") == manager.StatusReconnecting }, 10*time.Second, 10*time.Millisecond)
	st, _ := m.Server("demo")
	assert.Error(t, st.Err)
	assert.Nil(t, st.Session)
	for _, tl := range m.Tools() {
		assert.NotEqual(t, "demo", tl.Server, "its tools left the aggregate")
	}
	_, err = m.CallTool(ctx, &core.CallToolParams{Name: "demo__echo", Arguments: map[string]any{"text": "x"}}, nil)
	assert.ErrorIs(t, err, manager.ErrNotConnected)
	r, err := m.CallTool(ctx, &core.CallToolParams{Name: "ts__echo", Arguments: map[string]any{"text": "still here"}}, nil)
	require.NoError(t, err)
	assert.Equal(t, "still here", text(r))

	_, stop2 := peerproc.StartDemo(peerproc.DemoOptions{Modern: true, Port: port})
	defer stop2()
	require.Eventually(t, func() bool { return status(m, "demo") == manager.StatusConnected }, 15*time.Second, 10*time.Millisecond)
	r, err = m.CallTool(ctx, &core.CallToolParams{Name: "demo__echo", Arguments: map[string]any{"text": "back"}}, nil)
	require.NoError(t, err)
	assert.Equal(t, "back", text(r))
	sts := rec.statusesOf("demo")
	assert.Equal(t, []manager.Status{manager.StatusReconnecting, manager.StatusConnected}, sts[len(sts)-2:])
	assert.NotContains(t, sts, manager.StatusFailed)
	assert.Equal(t, []manager.Status{manager.StatusConnected}, rec.statusesOf("ts"))
	// OnStatus saw the aggregate as of each status
	rec.mu.Lock()
	toolsAt := slices.Clone(rec.toolsAt)
	rec.mu.Unlock()
	assert.Contains(t, toolsAt, fmt.Sprintf("demo connected %d", demoTools))
	assert.Contains(t, toolsAt, "demo reconnecting 0")
	assert.NotContains(t, toolsAt, "demo connected 0")
}

// TestLostOnCall: without a health check, a call that finds the
// connection gone starts the reconnection; Reconnect restarts a failed
// server.
func TestLostOnCall(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	origin, stop := peerproc.StartDemo(peerproc.DemoOptions{Modern: true})
	m, err := manager.New(&manager.Config{MCPServers: map[string]*manager.ServerConfig{"demo": {URL: origin + peerproc.MCPPath}}},
		&manager.Options{Reconnect: &manager.ReconnectPolicy{Delay: 10 * time.Millisecond, MaxDelay: 20 * time.Millisecond, Attempts: 2}})
	require.NoError(t, err)
	defer m.Close()
	_, err = m.Connect(ctx)
	require.NoError(t, err)
	stop()
	_, err = m.CallTool(ctx, &core.CallToolParams{Name: "demo__echo", Arguments: map[string]any{"text": "x"}}, nil)
	var oe *net.OpError
	require.ErrorAs(t, err, &oe)
	require.Eventually(t, func() bool { return status(m, "demo") == manager.StatusFailed }, 10*time.Second, 10*time.Millisecond)
	st, err := m.Reconnect(ctx, "demo")
	require.NoError(t, err)
	assert.Equal(t, manager.StatusReconnecting, st.Status, "still down, retrying")
	require.Eventually(t, func() bool { return status(m, "demo") == manager.StatusFailed }, 10*time.Second, 10*time.Millisecond)
}

// TestCollisions: names that sanitize alike are told apart the same way
// whatever the order servers connect in.
func TestCollisions(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	tsURL := peerproc.TSServer(t, 0)
	var results [][]string
	for range 2 {
		cfg := &manager.Config{MCPServers: map[string]*manager.ServerConfig{}}
		for _, n := range []string{"x.y", "x_y", "x"} {
			cfg.MCPServers[n] = &manager.ServerConfig{URL: tsURL, AllowTools: []string{"echo", "add"}}
		}
		m, err := manager.New(cfg, &manager.Options{Separator: "_"})
		require.NoError(t, err)
		_, err = m.Connect(ctx)
		require.NoError(t, err)
		var got []string
		for _, tl := range m.Tools() {
			got = append(got, tl.Name+"="+tl.Server+"/"+tl.ToolName)
		}
		results = append(results, got)
		r, err := m.CallTool(ctx, &core.CallToolParams{Name: "x_y_echo_2", Arguments: map[string]any{"text": "routed"}}, nil)
		require.NoError(t, err)
		assert.Equal(t, "routed", text(r))
		require.NoError(t, m.Close())
	}
	assert.Equal(t, []string{"x_echo=x/echo", "x_add=x/add", "x_y_echo=x.y/echo", "x_y_add=x.y/add", "x_y_echo_2=x_y/echo", "x_y_add_2=x_y/add"}, results[0])
	assert.Equal(t, results[0], results[1])
}

// TestStdioExit: a stdio server that exits is reconnecting, with its
// stderr in the error.
func TestStdioExit(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	node, _ := nodeServer(t, "server-memory")
	m, err := manager.New(&manager.Config{MCPServers: map[string]*manager.ServerConfig{
		"dies": {Command: node, Args: []string{"-e", `process.stderr.write("no database here\n"); process.exit(4)`}},
	}}, &manager.Options{Reconnect: &manager.ReconnectPolicy{Attempts: 1}})
	require.NoError(t, err)
	defer m.Close()
	states, err := m.Connect(ctx)
	require.NoError(t, err)
	require.Len(t, states, 1)
	assert.Equal(t, manager.StatusFailed, states[0].Status)
	require.Error(t, states[0].Err)
	assert.Contains(t, states[0].Err.Error(), "no database here")
	assert.True(t, errors.Is(states[0].Err, core.ErrClosed) || strings.Contains(states[0].Err.Error(), "status 4"), states[0].Err.Error())
}

// TestStdioRestart: a stdio server killed from outside is reconnecting
// (its exit in the error), then connected again with a new process.
func TestStdioRestart(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	node, memScript := nodeServer(t, "server-memory")
	memFile := filepath.Join(t.TempDir(), "memory.jsonl")
	rec := &recorder{}
	m, err := manager.New(&manager.Config{MCPServers: map[string]*manager.ServerConfig{
		// the second argument (ignored by the server) tells this process from other tests' ones
		"memory": {Command: node, Args: []string{memScript, memFile}, Env: map[string]string{"MEMORY_FILE_PATH": memFile}},
	}}, rec.options(&manager.Options{Reconnect: &manager.ReconnectPolicy{Delay: 50 * time.Millisecond, MaxDelay: 200 * time.Millisecond, Attempts: 20}}))
	require.NoError(t, err)
	defer m.Close()
	_, err = m.Connect(ctx)
	require.NoError(t, err)
	pid := func() int {
		t.Helper()
		found := processes(t, memScript, memFile)
		require.Len(t, found, 1, "one process")
		return found[0]
	}
	first := pid()
	st, _ := m.Server("memory")
	assert.Equal(t, first, st.PID, "the state names the process")
	require.NoError(t, syscall.Kill(first, syscall.SIGKILL))
	require.Eventually(t, func() bool { return status(m, "memory") == manager.StatusReconnecting }, 10*time.Second, 5*time.Millisecond)
	require.Eventually(t, func() bool { return status(m, "memory") == manager.StatusConnected }, 20*time.Second, 10*time.Millisecond)
	second := pid()
	assert.NotEqual(t, first, second, "a new process")
	st, _ = m.Server("memory")
	assert.Equal(t, second, st.PID, "the state names the new process")
	r, err := m.CallTool(ctx, &core.CallToolParams{Name: "memory__read_graph", Arguments: map[string]any{}}, nil)
	require.NoError(t, err)
	assert.False(t, r.IsError)
	assert.Equal(t, []manager.Status{manager.StatusConnected, manager.StatusReconnecting, manager.StatusConnected}, rec.statusesOf("memory"))
	rec.mu.Lock()
	lostErr := rec.statuses[1].Err
	rec.mu.Unlock()
	require.Error(t, lostErr)
	assert.ErrorIs(t, lostErr, stdio.ErrProcessExited, "the status says why: %v", lostErr)
	assert.Equal(t, []manager.ChangeKind{manager.ChangeServers, manager.ChangeServers, manager.ChangeServers}, rec.changesOf("memory"), "joined, left, joined")
	require.NoError(t, m.Close())
	assert.ErrorIs(t, syscall.Kill(second, 0), syscall.ESRCH, "ended on close")
}

// processes returns the ids of the processes whose command line holds
// args in a row (from /proc).
func processes(t *testing.T, args ...string) []int {
	t.Helper()
	entries, err := os.ReadDir("/proc")
	require.NoError(t, err)
	want := strings.Join(args, "\x00")
	var out []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err == nil && strings.Contains(string(b), want) {
			out = append(out, pid)
		}
	}
	return out
}

// hostDoer is a fetch.Doer that counts the requests it performs, by host.
type hostDoer struct {
	inner fetch.Doer
	mu    sync.Mutex
	hosts map[string]int
}

func (d *hostDoer) Do(ctx context.Context, req *fetch.Request) (*fetch.Response, error) {
	u, err := url.Parse(req.URL)
	if err == nil {
		d.mu.Lock()
		d.hosts[u.Host]++
		d.mu.Unlock()
	}
	return d.inner.Do(ctx, req)
}

// TestHTTPDoer: Options.HTTP performs the requests of every HTTP server
// (an auth.Doer goes there), and only theirs.
func TestHTTPDoer(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	tsURL := peerproc.TSServer(t, 0)
	demo := peerproc.GoSDKServer(t, peerproc.DemoOptions{Modern: true})
	node, memScript := nodeServer(t, "server-memory")
	memFile := filepath.Join(t.TempDir(), "memory.jsonl")
	d := &hostDoer{inner: fetch.DefaultDoer(), hosts: map[string]int{}}
	m, err := manager.New(&manager.Config{MCPServers: map[string]*manager.ServerConfig{
		"ts":     {URL: tsURL},
		"demo":   {URL: demo + peerproc.MCPPath, Transport: "streamable-http"},
		"memory": {Command: node, Args: []string{memScript, memFile}, Env: map[string]string{"MEMORY_FILE_PATH": memFile}},
	}}, &manager.Options{HTTP: d})
	require.NoError(t, err)
	defer m.Close()
	states, err := m.Connect(ctx)
	require.NoError(t, err)
	for _, s := range states {
		require.Equal(t, manager.StatusConnected, s.Status, "%s: %v", s.Name, s.Err)
	}
	r, err := m.CallTool(ctx, &core.CallToolParams{Name: "demo__echo", Arguments: map[string]any{"text": "via the doer"}}, nil)
	require.NoError(t, err)
	assert.False(t, r.IsError)
	hostOf := func(raw string) string {
		u, err := url.Parse(raw)
		require.NoError(t, err)
		return u.Host
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	assert.Positive(t, d.hosts[hostOf(tsURL)], "the TS server's requests")
	assert.Positive(t, d.hosts[hostOf(demo)], "the Go SDK server's requests")
	assert.Len(t, d.hosts, 2, "no other requests (the stdio server has none): %v", d.hosts)
}
