//go:build unix

package stdio_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
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
	"github.com/mcpwasm/mcpwasm/jsonrpc"
	"github.com/mcpwasm/mcpwasm/tests/peerproc"
	"github.com/mcpwasm/mcpwasm/transport/stdio"
)

// The fault server: this test binary started again with
// MCPWASM_STDIO_FAULT set (faults the real servers do not produce).
func TestMain(m *testing.M) {
	if mode := os.Getenv("MCPWASM_STDIO_FAULT"); mode != "" {
		faultServer(mode)
		return
	}
	goleak.VerifyTestMain(m)
}

func faultServer(mode string) {
	if mode == "ignore-term" {
		signal.Ignore(syscall.SIGTERM) // before the pid file tells the test it runs
	}
	if f := os.Getenv("MCPWASM_STDIO_PIDFILE"); f != "" {
		// written whole before the test sees the name
		_ = os.WriteFile(f+".tmp", []byte(strconv.Itoa(os.Getpid())), 0o600)
		_ = os.Rename(f+".tmp", f)
	}
	// Bounded by itself: never outlive a test run.
	go func() { time.Sleep(2 * time.Minute); os.Exit(9) }()
	switch mode {
	case "lines":
		fmt.Println(`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"first"}}`)
		fmt.Println(`this is not json`)
		fmt.Println(`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"` + strings.Repeat("x", 2000) + `"}}`)
		fmt.Print("\r\n\n")
		fmt.Println(`[{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"batched"}}]`)
		fmt.Fprintln(os.Stderr, "log line one")
		fmt.Fprintln(os.Stderr, "log line two")
		// echo every line back as a notification, until stdin closes
		buf := make([]byte, 1<<16)
		for {
			n, err := os.Stdin.Read(buf)
			if n > 0 {
				fmt.Printf(`{"jsonrpc":"2.0","method":"notifications/echo","params":{"n":%d}}`+"\n", n)
			}
			if err != nil {
				os.Exit(0)
			}
		}
	case "exit":
		fmt.Fprintln(os.Stderr, "fatal: cannot open the database")
		os.Exit(3)
	case "no-read":
		time.Sleep(time.Hour) // never reads its input
	case "ignore-eof":
		_, _ = io.Copy(io.Discard, os.Stdin)
		time.Sleep(time.Hour) // SIGTERM ends it
	case "ignore-term":
		_, _ = io.Copy(io.Discard, os.Stdin)
		time.Sleep(time.Hour) // only SIGKILL ends it
	case "tree":
		// A wrapper: it starts a child of its own (which holds none of
		// the pipes and never reads its input), then ignores the end of
		// its input; SIGTERM ends it.
		child := exec.Command(os.Args[0], "-test.run=^$")
		child.Env = append(os.Environ(), "MCPWASM_STDIO_FAULT=linger", "MCPWASM_STDIO_PIDFILE="+os.Getenv("MCPWASM_STDIO_PIDFILE")+".child")
		if err := child.Start(); err != nil {
			os.Exit(4)
		}
		_, _ = io.Copy(io.Discard, os.Stdin)
		time.Sleep(time.Hour)
	case "linger":
		time.Sleep(time.Hour) // a signal (or its own bound) ends it
	}
}

func faultTransport(t *testing.T, mode string, opts *stdio.Options) (*stdio.Transport, string) {
	t.Helper()
	pidfile := filepath.Join(t.TempDir(), "pid")
	o := stdio.Options{}
	if opts != nil {
		o = *opts
	}
	o.Env = append(o.Env, "MCPWASM_STDIO_FAULT="+mode, "MCPWASM_STDIO_PIDFILE="+pidfile)
	o.Args = []string{"-test.run=^$"}
	tr, err := stdio.New(os.Args[0], &o)
	require.NoError(t, err)
	return tr, pidfile
}

// gone reports whether the process in pidfile no longer exists.
func gone(t *testing.T, pidfile string) bool {
	t.Helper()
	b, err := os.ReadFile(pidfile)
	require.NoError(t, err)
	pid, err := strconv.Atoi(string(b))
	require.NoError(t, err)
	return errors.Is(syscall.Kill(pid, 0), syscall.ESRCH)
}

// syncBuffer is a bytes.Buffer safe for concurrent use.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func recv(t *testing.T, c core.Conn) jsonrpc.Message {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	m, err := c.Recv(ctx)
	require.NoError(t, err)
	return m
}

func TestLines(t *testing.T) {
	var stderr syncBuffer
	tr, pidfile := faultTransport(t, "lines", &stdio.Options{Stderr: &stderr, MaxMessageSize: 1000})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, err := tr.Connect(ctx)
	require.NoError(t, err)

	first := recv(t, c).(*jsonrpc.Request)
	assert.Equal(t, "notifications/message", first.Method)
	bad := recv(t, c).(*jsonrpc.Response)
	assert.ErrorIs(t, bad.TransportErr, stdio.ErrMalformed, "a malformed line is reported")
	long := recv(t, c).(*jsonrpc.Response)
	assert.ErrorIs(t, long.TransportErr, stdio.ErrTooLarge, "a line over MaxMessageSize is reported")
	batched := recv(t, c).(*jsonrpc.Request)
	assert.JSONEq(t, `{"level":"info","data":"batched"}`, string(batched.Params), "the connection goes on after both; blank lines are skipped")

	// a line out: the server counts its bytes (the message and the newline)
	msg := &jsonrpc.Request{Method: "notifications/initialized"}
	require.NoError(t, c.Send(ctx, msg, nil))
	enc, err := jsonrpc.EncodeMessage(msg)
	require.NoError(t, err)
	echo := recv(t, c).(*jsonrpc.Request)
	assert.JSONEq(t, fmt.Sprintf(`{"n":%d}`, len(enc)+1), string(echo.Params))

	require.Eventually(t, func() bool { return strings.Contains(stderr.String(), "log line two") }, 10*time.Second, 10*time.Millisecond, "stderr is passed on")
	assert.Equal(t, "log line one\nlog line two\n", stderr.String())
	require.NoError(t, c.Close())
	assert.True(t, gone(t, pidfile), "the process exited on Close")
	_, err = c.Recv(ctx)
	assert.ErrorIs(t, err, io.EOF, "an orderly end after Close")
	assert.ErrorIs(t, c.Send(ctx, msg, nil), core.ErrClosed)
	require.NoError(t, c.Close(), "Close twice")
}

func TestExit(t *testing.T) {
	tr, _ := faultTransport(t, "exit", nil)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, err := tr.Connect(ctx)
	require.NoError(t, err)
	defer c.Close()
	_, err = c.Recv(ctx)
	var ee *stdio.ExitError
	require.ErrorAs(t, err, &ee)
	assert.ErrorIs(t, err, stdio.ErrProcessExited)
	assert.Equal(t, 3, ee.ExitCode)
	assert.Contains(t, ee.Stderr, "fatal: cannot open the database")
	assert.Contains(t, err.Error(), "status 3")
	assert.Contains(t, err.Error(), "cannot open the database")
	assert.ErrorIs(t, c.Send(ctx, &jsonrpc.Request{Method: "notifications/initialized"}, nil), stdio.ErrProcessExited)
}

func TestCloseEscalates(t *testing.T) {
	tests := []struct {
		mode    string
		atLeast time.Duration // the waits Close had to go through
	}{
		{mode: "ignore-eof", atLeast: 200 * time.Millisecond},
		{mode: "ignore-term", atLeast: 400 * time.Millisecond},
	}
	for _, tc := range tests {
		t.Run(tc.mode, func(t *testing.T) {
			tr, pidfile := faultTransport(t, tc.mode, &stdio.Options{CloseTimeout: 200 * time.Millisecond})
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			c, err := tr.Connect(ctx)
			require.NoError(t, err)
			require.Eventually(t, func() bool { _, err := os.Stat(pidfile); return err == nil }, 10*time.Second, 10*time.Millisecond)
			require.NoError(t, c.Send(ctx, &jsonrpc.Request{Method: "notifications/initialized"}, nil))
			start := time.Now()
			require.NoError(t, c.Close())
			assert.GreaterOrEqual(t, time.Since(start), tc.atLeast)
			assert.Less(t, time.Since(start), 5*time.Second)
			assert.True(t, gone(t, pidfile), "no orphan process")
		})
	}
}

// TestCloseEndsTheGroup: the signals of Close reach the processes the
// server started, not only the server.
func TestCloseEndsTheGroup(t *testing.T) {
	tr, pidfile := faultTransport(t, "tree", &stdio.Options{CloseTimeout: 200 * time.Millisecond})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, err := tr.Connect(ctx)
	require.NoError(t, err)
	childfile := pidfile + ".child"
	require.Eventually(t, func() bool {
		_, err1 := os.Stat(pidfile)
		_, err2 := os.Stat(childfile)
		return err1 == nil && err2 == nil
	}, 10*time.Second, 10*time.Millisecond)
	require.False(t, ended(t, childfile), "the server's child runs")
	b, err := os.ReadFile(pidfile)
	require.NoError(t, err)
	assert.Equal(t, string(b), strconv.Itoa(tr.PID()), "PID names the server's process")
	require.NoError(t, c.Close())
	assert.True(t, gone(t, pidfile), "the server ended")
	assert.Zero(t, tr.PID(), "no process runs")
	// The child is not ours to wait for: its end is seen when it happens.
	assert.Eventually(t, func() bool { return ended(t, childfile) }, 5*time.Second, 10*time.Millisecond, "the server's child ended with it")
}

// ended reports whether the process in pidfile has ended: gone, or a
// zombie its parent (init, once the server is gone) has not reaped yet.
func ended(t *testing.T, pidfile string) bool {
	t.Helper()
	if gone(t, pidfile) {
		return true
	}
	b, _ := os.ReadFile(pidfile)
	stat, err := os.ReadFile("/proc/" + string(b) + "/stat")
	if err != nil {
		return false // no /proc here: a zombie counts as running
	}
	// pid (comm) state ...: comm may hold spaces and parentheses.
	rest := stat[bytes.LastIndexByte(stat, ')')+1:]
	return len(rest) > 1 && rest[1] == 'Z'
}

func TestServerNotReading(t *testing.T) {
	tr, pidfile := faultTransport(t, "no-read", &stdio.Options{CloseTimeout: 100 * time.Millisecond})
	c, err := tr.Connect(context.Background())
	require.NoError(t, err)
	big := &jsonrpc.Request{Method: "notifications/message", Params: json.RawMessage(`{"data":"` + strings.Repeat("x", 1<<20) + `"}`)}
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	start := time.Now()
	err = c.Send(ctx, big, nil)
	require.Error(t, err, "the pipe holds less than a megabyte")
	assert.Less(t, time.Since(start), 5*time.Second, "bounded by ctx's deadline")
	assert.Contains(t, err.Error(), "stopped reading its input in the middle of a message")
	rctx, rcancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer rcancel()
	_, err = c.Recv(rctx)
	assert.Error(t, err, "a cut line ends the connection")
	assert.NotErrorIs(t, err, context.DeadlineExceeded)
	require.NoError(t, c.Close())
	assert.True(t, gone(t, pidfile))
}

func TestStartFailure(t *testing.T) {
	tr, err := stdio.New("/nonexistent/mcp-server", nil)
	require.NoError(t, err)
	_, err = tr.Connect(context.Background())
	assert.ErrorIs(t, err, stdio.ErrStart)
	_, err = stdio.New("", nil)
	assert.Error(t, err)
	_, err = stdio.New("x", &stdio.Options{Env: []string{"NOEQUALS"}})
	assert.Error(t, err)
}

// node returns the node binary and the entry point of an npm server package.
func nodeServer(t *testing.T, pkg string) (string, string) {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatal("node (Node >= 20) is not on PATH")
	}
	return node, filepath.Join(peerproc.RepoRoot(t), "node_modules", "@modelcontextprotocol", pkg, "dist", "index.js")
}

func text(t *testing.T, r *core.CallToolResult) string {
	t.Helper()
	var b strings.Builder
	for _, c := range r.Content {
		if c.Type == "text" {
			b.WriteString(c.Text)
		}
	}
	return b.String()
}

func TestRealServers(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	t.Run("server-filesystem", func(t *testing.T) {
		dir := t.TempDir()
		require.NoError(t, os.WriteFile(filepath.Join(dir, "hello.txt"), []byte("hello from the disk"), 0o600))
		node, script := nodeServer(t, "server-filesystem")
		var stderr syncBuffer
		tr, err := stdio.New(node, &stdio.Options{Args: []string{script, dir}, Stderr: &stderr})
		require.NoError(t, err)
		client := core.NewClient(&core.Implementation{Name: "stdio-test", Version: "1.0.0"}, nil)
		s, err := client.Connect(ctx, tr, nil)
		require.NoError(t, err)
		assert.Equal(t, core.EraLegacy, s.Era())
		assert.Equal(t, "secure-filesystem-server", s.ServerInfo().Name)
		res, err := s.CallTool(ctx, &core.CallToolParams{Name: "read_text_file", Arguments: map[string]any{"path": filepath.Join(dir, "hello.txt")}}, nil)
		require.NoError(t, err)
		assert.Equal(t, "hello from the disk", text(t, res))
		res, err = s.CallTool(ctx, &core.CallToolParams{Name: "write_file", Arguments: map[string]any{"path": filepath.Join(dir, "new.txt"), "content": "written"}}, nil)
		require.NoError(t, err)
		require.False(t, res.IsError, text(t, res))
		b, err := os.ReadFile(filepath.Join(dir, "new.txt"))
		require.NoError(t, err)
		assert.Equal(t, "written", string(b))
		res, err = s.CallTool(ctx, &core.CallToolParams{Name: "read_text_file", Arguments: map[string]any{"path": "/etc/passwd"}}, nil)
		require.NoError(t, err)
		assert.True(t, res.IsError, "outside the allowed directory")
		require.NoError(t, s.Close())
		assert.Contains(t, stderr.String(), "Secure MCP Filesystem Server running on stdio", "its stderr was passed on")
	})
	t.Run("server-memory", func(t *testing.T) {
		mem := filepath.Join(t.TempDir(), "memory.jsonl")
		node, script := nodeServer(t, "server-memory")
		tr, err := stdio.New(node, &stdio.Options{Args: []string{script}, Env: []string{"MEMORY_FILE_PATH=" + mem}})
		require.NoError(t, err)
		client := core.NewClient(&core.Implementation{Name: "stdio-test", Version: "1.0.0"}, nil)
		s, err := client.Connect(ctx, tr, nil)
		require.NoError(t, err)
		_, err = s.CallTool(ctx, &core.CallToolParams{Name: "create_entities", Arguments: map[string]any{
			"entities": []any{map[string]any{"name": "Ada", "entityType": "person", "observations": []string{"wrote the first program"}}},
		}}, nil)
		require.NoError(t, err)
		res, err := s.CallTool(ctx, &core.CallToolParams{Name: "read_graph", Arguments: map[string]any{}}, nil)
		require.NoError(t, err)
		var graph struct {
			Entities []struct {
				Name         string   `json:"name"`
				Observations []string `json:"observations"`
			} `json:"entities"`
		}
		require.NoError(t, json.Unmarshal([]byte(text(t, res)), &graph), text(t, res))
		require.Len(t, graph.Entities, 1)
		assert.Equal(t, "Ada", graph.Entities[0].Name)
		require.NoError(t, s.Close())
		b, err := os.ReadFile(mem)
		require.NoError(t, err)
		assert.Contains(t, string(b), "wrote the first program", "the server used the env we gave it")
	})
}
