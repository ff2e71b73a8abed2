//go:build unix

// Command gobench is the native half of `make bench` (bench/run.mjs drives
// it): the mcpwasm Go client (core + transport/fetch, net/http) against the
// official Go SDK client (github.com/modelcontextprotocol/go-sdk), one
// client per fresh process, against the same server in another process,
// beside two floors: bare (a JSON-RPC loop over net/http's reading and
// encoding/json, bare.go) and raw (prebuilt bytes and a byte search on one
// socket, raw.go).
//
//	gobench server [-json] [-gogc N] [-max-life D] [-cpuprofile FILE]
//	    The official Go SDK server (harness/demoserver, both eras, its echo
//	    tool) on 127.0.0.1; prints "LISTENING http://127.0.0.1:<port>/mcp" and
//	    exits when its stdin (a pipe from the parent) closes or on SIGTERM.
//	    -cpuprofile writes a pprof CPU profile of the server's whole life
//	    (where a call's server-side time goes; the bench does not set it).
//	    -gogc sets the server's GC percentage (debug.SetGCPercent; GOGC's
//	    meaning, default 100): the bench gives the server 400 so that its
//	    collector does not set the pace of the clients it measures
//	    (docs/architecture.md, "The native bench's server collects less
//	    often").
//	gobench client -impl mcpwasm|gosdk|bare|raw -era legacy|modern -url URL [-calls N] [-warmup N] [-cpuprofile FILE] [-memprofile FILE] [-trace FILE]
//	    Connects, lists tools, makes -warmup then -calls sequential echo
//	    calls (each answer checked), and prints one line
//	    "RESULT {json}" with calls/s and the process's CPU (getrusage: user +
//	    system, all threads) per timed call. -cpuprofile writes a pprof CPU
//	    profile of the timed calls (for `go tool pprof`; the bench does not
//	    set it).
//
// It lives under bench/ so that library users never download it. It builds
// on Unix only (it reads the CPU time with getrusage).
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
	"runtime/trace"
	"sync"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpwasm/mcpwasm/core"
	"github.com/mcpwasm/mcpwasm/harness/demoserver"
	"github.com/mcpwasm/mcpwasm/harness/peerlife"
	"github.com/mcpwasm/mcpwasm/transport/fetch"
)

const (
	legacyVersion = "2025-11-25"
	modernVersion = "2026-07-28"
	// callTimeout bounds one call, so a stuck server fails the round.
	callTimeout = 30 * time.Second
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: gobench server|client [flags]")
		os.Exit(2)
	}
	var err error
	switch os.Args[1] {
	case "server":
		err = serve(os.Args[2:])
	case "client":
		err = client(os.Args[2:], os.Stdout)
	default:
		err = fmt.Errorf("unknown command %q (want server or client)", os.Args[1])
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "gobench:", err)
		os.Exit(1)
	}
}

func serve(args []string) error {
	fs := flag.NewFlagSet("server", flag.ContinueOnError)
	jsonAnswers := fs.Bool("json", false, "answer with application/json bodies instead of SSE streams")
	maxLife := fs.Duration("max-life", 30*time.Minute, "exit after this long")
	cpuProfile := fs.String("cpuprofile", "", "write a pprof CPU profile of the server's whole life to this file")
	gogc := fs.Int("gogc", 100, "the server's GC percentage (as GOGC; negative: off)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	debug.SetGCPercent(*gogc)
	stopProfile, err := startRecording(*cpuProfile, pprof.StartCPUProfile, pprof.StopCPUProfile)
	if err != nil {
		return err
	}
	defer stopProfile()
	srv := demoserver.New(&demoserver.Options{Modern: true, JSONResponse: *jsonAnswers})
	defer srv.Close()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	hs := &http.Server{Handler: srv.Handler(), ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = hs.Serve(ln) }()
	fmt.Printf("LISTENING http://%s%s\n", ln.Addr(), demoserver.MCPPath)
	peerlife.Wait(*maxLife)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	return hs.Shutdown(ctx)
}

// benchClient is the part of a client the measurement needs.
type benchClient interface {
	echo(ctx context.Context, text string) (string, error)
	listTools(ctx context.Context) ([]string, error)
	version() string
	close() error
}

// result is what one round reports (bench/run.mjs reads it).
type result struct {
	Client  string             `json:"client"`
	Era     string             `json:"era"`
	Version string             `json:"version"`
	Go      string             `json:"go"`
	Marks   map[string]float64 `json:"marks"` // ms since main started
	Calls   int                `json:"calls"`
	Secs    float64            `json:"secs"`
	Rate    float64            `json:"rate"`
	CPUUs   float64            `json:"cpuUs"`
}

// client runs one round (the client subcommand) and writes its RESULT line
// to w.
func client(args []string, w io.Writer) error {
	start := time.Now()
	fs := flag.NewFlagSet("client", flag.ContinueOnError)
	impl := fs.String("impl", "", "mcpwasm, gosdk, bare or raw")
	era := fs.String("era", "modern", "legacy or modern")
	url := fs.String("url", "", "the MCP endpoint")
	calls := fs.Int("calls", 3000, "timed sequential calls")
	warmup := fs.Int("warmup", 300, "untimed calls first")
	cpuprofile := fs.String("cpuprofile", "", "write a CPU profile of the timed calls to this file")
	memprofile := fs.String("memprofile", "", "write an allocation profile of the timed calls to this file")
	traceFile := fs.String("trace", "", "write an execution trace of the timed calls to this file")
	if err := fs.Parse(args); err != nil {
		return err
	}
	var version string
	switch *era {
	case "legacy":
		version = legacyVersion
	case "modern":
		version = modernVersion
	default:
		return fmt.Errorf("unknown era %q", *era)
	}
	if *url == "" || *calls <= 0 || *warmup < 0 {
		return errors.New("need -url, -calls > 0 and -warmup >= 0")
	}
	ms := func() float64 { return float64(time.Since(start).Microseconds()) / 1000 }
	marks := map[string]float64{}

	ctx := context.Background()
	var c benchClient
	var err error
	switch *impl {
	case "mcpwasm":
		c, err = dialMcpwasm(ctx, *url, version)
	case "gosdk":
		c, err = dialGoSDK(ctx, *url, version)
	case "bare":
		c, err = dialBare(ctx, *url, version)
	case "raw":
		c, err = dialRaw(ctx, *url, version)
	default:
		return fmt.Errorf("unknown -impl %q", *impl)
	}
	if err != nil {
		return fmt.Errorf("%s: connect: %w", *impl, err)
	}
	defer c.close()
	marks["connected"] = ms()
	names, err := c.listTools(ctx)
	if err != nil {
		return fmt.Errorf("%s: tools/list: %w", *impl, err)
	}
	marks["listed"] = ms()
	if !contains(names, "echo") {
		return fmt.Errorf("%s: tools/list has no echo tool", *impl)
	}
	if got := c.version(); got != version {
		return fmt.Errorf("%s: asked for %s, negotiated %q", *impl, version, got)
	}

	run := func(n int) error {
		for i := range n {
			want := fmt.Sprintf("x%d", i)
			cctx, cancel := context.WithTimeout(ctx, callTimeout)
			got, err := c.echo(cctx, want)
			cancel()
			if err != nil {
				return fmt.Errorf("%s: call %d: %w", *impl, i, err)
			}
			if got != want {
				return fmt.Errorf("%s: echo answered %q, want %q", *impl, got, want)
			}
		}
		return nil
	}
	if err := run(*warmup); err != nil {
		return err
	}
	stopProfile, err := startRecording(*cpuprofile, pprof.StartCPUProfile, pprof.StopCPUProfile)
	if err != nil {
		return err
	}
	defer stopProfile()
	stopTrace, err := startRecording(*traceFile, trace.Start, trace.Stop)
	if err != nil {
		return err
	}
	defer stopTrace()
	if *memprofile != "" {
		runtime.MemProfileRate = 512
		runtime.GC() // the profile then counts the timed calls' allocations (go tool pprof -sample_index=alloc_space)
	}
	cpu0 := cpuTime()
	t0 := time.Now()
	if err := run(*calls); err != nil {
		return err
	}
	secs := time.Since(t0).Seconds()
	cpu := cpuTime() - cpu0
	stopProfile()
	stopTrace()
	if *memprofile != "" {
		f, err := os.Create(*memprofile)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := pprof.Lookup("allocs").WriteTo(f, 0); err != nil {
			return err
		}
	}
	out, err := json.Marshal(result{
		Client: *impl, Era: *era, Version: c.version(), Go: runtime.Version(), Marks: marks,
		Calls: *calls, Secs: secs, Rate: float64(*calls) / secs,
		CPUUs: float64(cpu.Microseconds()) / float64(*calls),
	})
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "RESULT %s\n", out)
	return err
}

// cpuTime is the process's user + system CPU time so far (every thread).
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// --- the mcpwasm client (core + transport/fetch) ---

type mcpwasmClient struct{ s *core.Session }

func dialMcpwasm(ctx context.Context, url, version string) (*mcpwasmClient, error) {
	tr, err := fetch.New(url, nil)
	if err != nil {
		return nil, err
	}
	cl := core.NewClient(&core.Implementation{Name: "bench-mcpwasm", Version: "1.0.0"}, &core.ClientOptions{ProtocolVersions: []string{version}})
	s, err := cl.Connect(ctx, tr, nil)
	if err != nil {
		return nil, err
	}
	return &mcpwasmClient{s: s}, nil
}

func (c *mcpwasmClient) echo(ctx context.Context, text string) (string, error) {
	res, err := c.s.CallTool(ctx, &core.CallToolParams{Name: "echo", Arguments: map[string]any{"text": text}}, nil)
	if err != nil {
		return "", err
	}
	if len(res.Content) == 0 {
		return "", errors.New("no content")
	}
	return res.Content[0].Text, nil
}

func (c *mcpwasmClient) listTools(ctx context.Context) ([]string, error) {
	res, err := c.s.ListTools(ctx, nil)
	if err != nil {
		return nil, err
	}
	var names []string
	for _, t := range res.Tools {
		names = append(names, t.Name)
	}
	return names, nil
}

func (c *mcpwasmClient) version() string { return c.s.ProtocolVersion() }
func (c *mcpwasmClient) close() error    { return c.s.Close() }

// --- the official Go SDK client ---

type goSDKClient struct{ cs *mcp.ClientSession }

func dialGoSDK(ctx context.Context, url, version string) (*goSDKClient, error) {
	cl := mcp.NewClient(&mcp.Implementation{Name: "bench-gosdk", Version: "1.0.0"}, nil)
	cs, err := cl.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: url}, &mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		return nil, err
	}
	return &goSDKClient{cs: cs}, nil
}

func (c *goSDKClient) echo(ctx context.Context, text string) (string, error) {
	res, err := c.cs.CallTool(ctx, &mcp.CallToolParams{Name: "echo", Arguments: map[string]any{"text": text}})
	if err != nil {
		return "", err
	}
	if len(res.Content) == 0 {
		return "", errors.New("no content")
	}
	tc, ok := res.Content[0].(*mcp.TextContent)
	if !ok {
		return "", fmt.Errorf("content is %T, want text", res.Content[0])
	}
	return tc.Text, nil
}

func (c *goSDKClient) listTools(ctx context.Context) ([]string, error) {
	res, err := c.cs.ListTools(ctx, nil)
	if err != nil {
		return nil, err
	}
	var names []string
	for _, t := range res.Tools {
		names = append(names, t.Name)
	}
	return names, nil
}

func (c *goSDKClient) version() string {
	if r := c.cs.InitializeResult(); r != nil {
		return r.ProtocolVersion
	}
	return ""
}
func (c *goSDKClient) close() error { return c.cs.Close() }

// startRecording starts a recording (a CPU profile, an execution trace)
// into the file at path, with start and stop as pprof.StartCPUProfile and
// pprof.StopCPUProfile are; path "" records nothing. The stop function it
// returns ends the recording and closes the file; calls after the first do
// nothing, so it can be both deferred and called where the recording ends.
func startRecording(path string, start func(io.Writer) error, stop func()) (func(), error) {
	if path == "" {
		return func() {}, nil
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	if err := start(f); err != nil {
		f.Close()
		return nil, err
	}
	var once sync.Once
	return func() {
		once.Do(func() {
			stop()
			f.Close()
		})
	}, nil
}
