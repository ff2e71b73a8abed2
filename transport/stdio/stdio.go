// Package stdio is mcpwasm's stdio transport: it starts an MCP server as a
// child process and speaks newline-delimited JSON-RPC over its standard
// input and output, as the MCP specification's stdio transport prescribes.
//
// Each message is one line of UTF-8 JSON (a JSON-RPC batch array is
// tolerated on input); cancellation is the notifications/cancelled
// notification, which the session sends itself; the era is negotiated
// in-band (server/discover first, then initialize, with core's probe
// timeout for servers that ignore the unknown method).
//
// The child's standard error is the server's log: it goes to
// Options.Stderr, and its last few kilobytes are kept to explain an
// unexpected exit (ExitError). A line that is not JSON-RPC, or longer than
// Options.MaxMessageSize, is reported to the session (core's OnWarning)
// and skipped: one bad line does not end the connection. Closing the
// connection ends the process the way the specification describes: its
// standard input is closed, then after Options.CloseTimeout it gets
// SIGTERM, and after another CloseTimeout SIGKILL; Close returns once it
// has exited. On Unix the server is started as the leader of a process
// group of its own and the signals go to the whole group, so that the
// processes it started (a wrapper script's child, what npx or uvx
// launch) end with it, as the Python SDK's client does. The flip side: a
// terminal's Ctrl+C reaches the program, not the server; the server then
// sees its standard input close when the program exits.
//
// The package uses os/exec: it works natively (not under GOOS=js or
// wasip1, where processes cannot be started; the npm package's
// mcpwasm/node spawns stdio servers from JavaScript instead).
package stdio

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/mcpwasm/mcpwasm/core"
	"github.com/mcpwasm/mcpwasm/internal/inbox"
	"github.com/mcpwasm/mcpwasm/jsonrpc"
)

// Defaults of Options.
const (
	// DefaultMaxMessageSize bounds one incoming line (32 MiB).
	DefaultMaxMessageSize = 32 << 20
	// DefaultCloseTimeout is how long Close waits after closing the
	// server's standard input before SIGTERM, and after SIGTERM before
	// SIGKILL.
	DefaultCloseTimeout = 2 * time.Second
	// stderrTail is how much of the server's standard error is kept for
	// ExitError.
	stderrTail = 4 << 10
	// inboxSize bounds the messages read but not yet taken by the session;
	// the reader waits (the pipe then applies back-pressure to the server).
	inboxSize = 256
)

// Sentinel errors of the transport.
var (
	// ErrStart means the server process could not be started.
	ErrStart = errors.New("stdio: could not start the server")
	// ErrProcessExited means the server process exited (or closed its
	// standard output) while the connection was open; see ExitError.
	ErrProcessExited = errors.New("stdio: the server process exited")
	// ErrMalformed means the server wrote a line that is not a JSON-RPC
	// message. The line is skipped.
	ErrMalformed = errors.New("stdio: malformed line from the server")
	// ErrTooLarge means the server wrote a line longer than
	// Options.MaxMessageSize. The line is skipped.
	ErrTooLarge = errors.New("stdio: line too long")
)

// ExitError says how the server process ended while the connection was
// open. It matches ErrProcessExited with errors.Is. It is an immutable
// value.
type ExitError struct {
	// ExitCode is the process's exit status, or -1 when a signal ended it
	// or it had not exited (it closed its standard output).
	ExitCode int
	// Stderr is the end of the process's standard error (up to 4 KiB).
	Stderr string
	// Err is the wait error (nil when it exited with status 0).
	Err error
}

func (e *ExitError) Error() string {
	var b strings.Builder
	b.WriteString(ErrProcessExited.Error())
	switch {
	case e.ExitCode >= 0:
		fmt.Fprintf(&b, " (status %d)", e.ExitCode)
	case e.Err != nil:
		fmt.Fprintf(&b, " (%v)", e.Err)
	default:
		b.WriteString(" (it closed its standard output)")
	}
	if s := strings.TrimSpace(e.Stderr); s != "" {
		b.WriteString("; its stderr ends with: ")
		b.WriteString(s)
	}
	return b.String()
}

// Is reports whether target is ErrProcessExited.
func (e *ExitError) Is(target error) bool { return target == ErrProcessExited }

// Unwrap returns the wait error.
func (e *ExitError) Unwrap() error { return e.Err }

// Options configure a Transport; nil means all defaults. New copies them.
type Options struct {
	// Args are the command's arguments (without the command itself).
	Args []string
	// Env holds "NAME=value" entries added to this process's environment
	// for the server (an entry overrides a variable of the same name).
	Env []string
	// Dir is the server's working directory. Default: this process's.
	Dir string
	// Stderr receives the server's standard error as it is written (its
	// log). Default: nil, discarded (the last 4 KiB still explain an
	// ExitError). Writes happen on a goroutine of the connection; a
	// Writer that blocks holds the server's stderr pipe.
	Stderr io.Writer
	// MaxMessageSize bounds one incoming line in bytes. Default
	// DefaultMaxMessageSize.
	MaxMessageSize int
	// CloseTimeout bounds each wait of Close (standard input closed →
	// SIGTERM → SIGKILL). Default DefaultCloseTimeout.
	CloseTimeout time.Duration
}

// Transport starts an MCP server process per Connect. It is safe for
// concurrent use.
type Transport struct {
	command string
	opts    Options

	mu   sync.Mutex
	live *exec.Cmd // the latest Connect's process while it runs
}

// PID returns the process id of the server that the Transport's latest
// Connect started, while that process runs: 0 before the first Connect
// and once it has exited. It is safe for concurrent use.
func (t *Transport) PID() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.live == nil {
		return 0
	}
	return t.live.Process.Pid
}

// New returns a transport that runs command (looked up in PATH when it has
// no path separator) with opts. It starts nothing: Connect does.
func New(command string, opts *Options) (*Transport, error) {
	if command == "" {
		return nil, errors.New("stdio: no command")
	}
	t := &Transport{command: command}
	if opts != nil {
		t.opts = *opts
		t.opts.Args = append([]string(nil), opts.Args...)
		t.opts.Env = append([]string(nil), opts.Env...)
	}
	for _, kv := range t.opts.Env {
		if k, _, ok := strings.Cut(kv, "="); !ok || k == "" {
			return nil, fmt.Errorf("stdio: environment entry %q is not NAME=value", kv)
		}
	}
	if t.opts.MaxMessageSize <= 0 {
		t.opts.MaxMessageSize = DefaultMaxMessageSize
	}
	if t.opts.CloseTimeout <= 0 {
		t.opts.CloseTimeout = DefaultCloseTimeout
	}
	return t, nil
}

// Command returns the command and its arguments.
func (t *Transport) Command() []string {
	return append([]string{t.command}, t.opts.Args...)
}

// Connect starts the server process and returns the connection to it. ctx
// bounds the start only: the process lives until the connection's Close
// (or until it exits by itself).
func (t *Transport) Connect(ctx context.Context) (core.Conn, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	cmd := exec.Command(t.command, t.opts.Args...)
	cmd.Dir = t.opts.Dir
	if len(t.opts.Env) > 0 {
		cmd.Env = append(os.Environ(), t.opts.Env...)
	}
	// Our own pipes (not StdoutPipe): Wait closes those when the process
	// exits, which could lose the last lines it wrote.
	stdinR, stdinW, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrStart, err)
	}
	stdoutR, stdoutW, err := os.Pipe()
	if err != nil {
		closeAll(stdinR, stdinW)
		return nil, fmt.Errorf("%w: %w", ErrStart, err)
	}
	stderrR, stderrW, err := os.Pipe()
	if err != nil {
		closeAll(stdinR, stdinW, stdoutR, stdoutW)
		return nil, fmt.Errorf("%w: %w", ErrStart, err)
	}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = stdinR, stdoutW, stderrW
	ownGroup(cmd)
	if err := cmd.Start(); err != nil {
		closeAll(stdinR, stdinW, stdoutR, stdoutW, stderrR, stderrW)
		return nil, fmt.Errorf("%w: %s: %w", ErrStart, t.command, err)
	}
	// The child has its copies.
	closeAll(stdinR, stdoutW, stderrW)
	c := &conn{
		t:          t,
		cmd:        cmd,
		stdin:      stdinW,
		stdout:     stdoutR,
		stderr:     stderrR,
		in:         make(chan jsonrpc.Message, inboxSize),
		exited:     make(chan struct{}),
		stderrDone: make(chan struct{}),
	}
	t.mu.Lock()
	t.live = cmd
	t.mu.Unlock()
	c.ctx, c.cancel = context.WithCancel(context.Background())
	c.wg.Add(3)
	go c.wait()
	go c.readLoop()
	go c.copyStderr()
	return c, nil
}

func closeAll(fs ...*os.File) {
	for _, f := range fs {
		_ = f.Close()
	}
}

// conn is one running server process.
type conn struct {
	t      *Transport
	cmd    *exec.Cmd
	stdin  *os.File
	stdout *os.File
	stderr *os.File
	in     chan jsonrpc.Message
	ctx    context.Context // ends when the connection is finished
	cancel context.CancelFunc
	wg     sync.WaitGroup

	exited     chan struct{} // closed when the process has exited
	waitErr    error         // set before exited is closed
	stderrDone chan struct{} // closed when copyStderr has read stderr to its end

	wmu sync.Mutex // one line written at a time

	mu     sync.Mutex
	closed bool
	fatal  error
	tail   []byte // the end of stderr
}

// wait reaps the process. If it exited while its standard output stays
// open (a grandchild holds it), the reader is released after a grace
// period.
func (c *conn) wait() {
	defer c.wg.Done()
	c.waitErr = c.cmd.Wait()
	c.t.mu.Lock()
	if c.t.live == c.cmd {
		c.t.live = nil
	}
	c.t.mu.Unlock()
	close(c.exited)
	select {
	case <-c.ctx.Done():
	case <-time.After(c.t.opts.CloseTimeout):
		_ = c.stdout.Close()
		_ = c.stderr.Close()
	}
}

// copyStderr passes the server's standard error on and keeps its tail.
func (c *conn) copyStderr() {
	defer c.wg.Done()
	defer close(c.stderrDone)
	buf := make([]byte, 8<<10)
	for {
		n, err := c.stderr.Read(buf)
		if n > 0 {
			c.mu.Lock()
			c.tail = append(c.tail, buf[:n]...)
			if len(c.tail) > stderrTail {
				c.tail = append(c.tail[:0], c.tail[len(c.tail)-stderrTail:]...)
			}
			c.mu.Unlock()
			if w := c.t.opts.Stderr; w != nil {
				_, _ = w.Write(buf[:n])
			}
		}
		if err != nil {
			return
		}
	}
}

// readLoop reads the server's lines until its standard output ends.
func (c *conn) readLoop() {
	defer c.wg.Done()
	r := bufio.NewReaderSize(c.stdout, 64<<10)
	max := c.t.opts.MaxMessageSize
	var line []byte
	tooLong := false
	for {
		chunk, err := r.ReadSlice('\n')
		if len(chunk) > 0 && !tooLong {
			if len(line)+len(chunk) > max+2 { // +2: the line end
				tooLong = true
				c.push(&jsonrpc.Response{TransportErr: fmt.Errorf("%w: more than %d bytes (skipped)", ErrTooLarge, max)})
				line = line[:0]
			} else {
				line = append(line, chunk...)
			}
		}
		switch {
		case err == nil:
			if !tooLong {
				c.handleLine(line)
			}
			line, tooLong = line[:0], false
			if cap(line) > 1<<20 {
				line = nil // do not keep a huge buffer for small lines
			}
			continue
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		}
		if len(line) > 0 && !tooLong {
			c.handleLine(line) // a last line without its newline
		}
		c.finish()
		return
	}
}

// handleLine decodes one line and queues its messages.
func (c *conn) handleLine(line []byte) {
	line = bytes.TrimRight(line, "\r\n")
	if len(bytes.TrimSpace(line)) == 0 {
		return
	}
	msgs, err := jsonrpc.DecodeMessages(line)
	if err != nil {
		c.malformed(line, err)
		return
	}
	for _, m := range msgs {
		c.push(m)
	}
}

// malformed reports a line that is not JSON-RPC: a response it still
// identifies fails its request, a request it identifies is answered with
// Invalid Request, anything else is reported without an id.
func (c *conn) malformed(line []byte, cause error) {
	shown := line
	if len(shown) > 200 {
		shown = shown[:200]
	}
	err := fmt.Errorf("%w: %w: %q", ErrMalformed, cause, shown)
	var probe struct {
		ID     json.RawMessage `json:"id"`
		Method json.RawMessage `json:"method"`
		Result json.RawMessage `json:"result"`
		Error  json.RawMessage `json:"error"`
	}
	var id jsonrpc.ID
	if bytes.HasPrefix(bytes.TrimSpace(line), []byte("{")) && json.Unmarshal(line, &probe) == nil &&
		len(probe.ID) > 0 && id.UnmarshalJSON(probe.ID) == nil && id.IsValid() {
		switch {
		case len(probe.Method) > 0:
			resp := &jsonrpc.Response{ID: id, Error: &jsonrpc.Error{Code: -32600, Message: "Invalid Request: " + err.Error()}}
			_ = c.Send(c.ctx, resp, nil)
			c.push(&jsonrpc.Response{TransportErr: fmt.Errorf("%w (answered with Invalid Request)", err)})
			return
		case len(probe.Result) > 0 || len(probe.Error) > 0:
			c.push(&jsonrpc.Response{ID: id, TransportErr: err})
			return
		}
	}
	c.push(&jsonrpc.Response{TransportErr: err})
}

// push queues an incoming message; it gives up when the connection ends.
func (c *conn) push(m jsonrpc.Message) {
	select {
	case c.in <- m:
	case <-c.ctx.Done():
	}
}

// finish ends the connection after the server's standard output ended:
// an orderly end after Close, an ExitError otherwise.
func (c *conn) finish() {
	c.mu.Lock()
	closed := c.closed
	c.mu.Unlock()
	if !closed {
		// Give the process a moment to exit, to report its status.
		var exitErr *ExitError
		select {
		case <-c.exited:
			exitErr = &ExitError{ExitCode: c.cmd.ProcessState.ExitCode(), Err: c.waitErr}
			// What the server wrote to stderr before it exited may not
			// have been read yet (its last words: why it exited). Its
			// end comes with the exit, unless a process it started
			// holds the pipe, so the wait for it has the same bound.
			select {
			case <-c.stderrDone:
			case <-time.After(c.t.opts.CloseTimeout):
			case <-c.ctx.Done():
			}
		case <-time.After(c.t.opts.CloseTimeout):
			exitErr = &ExitError{ExitCode: -1}
		case <-c.ctx.Done():
		}
		c.mu.Lock()
		if exitErr != nil && !c.closed && c.fatal == nil {
			exitErr.Stderr = string(c.tail)
			c.fatal = exitErr
		}
		c.mu.Unlock()
	}
	c.cancel()
}

// Send writes msg as one line.
func (c *conn) Send(ctx context.Context, msg jsonrpc.Message, _ *core.SendOptions) error {
	b, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		return err
	}
	if bytes.IndexByte(b, '\n') >= 0 {
		// JSON text may hold raw newlines between tokens (a handler's
		// json.RawMessage): a line must not.
		var buf bytes.Buffer
		if err := json.Compact(&buf, b); err != nil {
			return fmt.Errorf("stdio: encoding: %w", err)
		}
		b = buf.Bytes()
	}
	b = append(b, '\n')
	if err := ctx.Err(); err != nil {
		return err
	}
	c.mu.Lock()
	closed, fatal := c.closed, c.fatal
	c.mu.Unlock()
	switch {
	case closed:
		return core.ErrClosed
	case fatal != nil:
		return fatal
	}
	// A server that stops reading its input blocks the write: ctx's
	// deadline bounds it (and Close ends it). A line cut short would
	// corrupt the stream, so a write that timed out after it began ends
	// the connection.
	c.wmu.Lock()
	dl, _ := ctx.Deadline()
	_ = c.stdin.SetWriteDeadline(dl)
	n, err := c.stdin.Write(b)
	c.wmu.Unlock()
	if err != nil && errors.Is(err, os.ErrDeadlineExceeded) {
		if n == 0 {
			return fmt.Errorf("stdio: the server is not reading its input: %w", context.DeadlineExceeded)
		}
		c.mu.Lock()
		if c.fatal == nil && !c.closed {
			c.fatal = fmt.Errorf("stdio: the server stopped reading its input in the middle of a message (%d of %d bytes written)", n, len(b))
		}
		fatal = c.fatal
		c.mu.Unlock()
		c.cancel()
		return fatal
	}
	if err != nil {
		c.mu.Lock()
		closed, fatal = c.closed, c.fatal
		c.mu.Unlock()
		switch {
		case closed:
			return core.ErrClosed
		case fatal != nil:
			return fatal
		}
		return fmt.Errorf("stdio: sending: %w", err)
	}
	return nil
}

// Recv returns the next message from the server.
func (c *conn) Recv(ctx context.Context) (jsonrpc.Message, error) {
	return inbox.Recv(ctx, c.in, c.ctx.Done(), func() error {
		c.mu.Lock()
		defer c.mu.Unlock()
		return c.fatal
	})
}

// Close ends the server process: its standard input is closed, then it
// gets SIGTERM after CloseTimeout and SIGKILL after another. On Unix the
// signals go to the server's process group (the server leads one of its
// own), so that the processes it started end with it. It returns once
// the process has exited and the connection's goroutines are done.
func (c *conn) Close() error {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return nil
	}
	c.closed = true
	c.mu.Unlock()
	_ = c.stdin.Close()
	d := c.t.opts.CloseTimeout
	if !waitFor(c.exited, d) {
		// To the process group: the server's own children too.
		if err := signalGroup(c.cmd.Process, syscall.SIGTERM); err != nil {
			_ = c.cmd.Process.Kill() // no SIGTERM on this platform
		}
		if !waitFor(c.exited, d) {
			if err := signalGroup(c.cmd.Process, syscall.SIGKILL); err != nil {
				_ = c.cmd.Process.Kill()
			}
			<-c.exited
		}
	}
	c.cancel()
	// A grandchild may still hold the pipes: release our ends.
	_ = c.stdout.Close()
	_ = c.stderr.Close()
	c.wg.Wait()
	return nil
}

// waitFor reports whether ch closed within d.
func waitFor(ch <-chan struct{}, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ch:
		return true
	case <-t.C:
		return false
	}
}
