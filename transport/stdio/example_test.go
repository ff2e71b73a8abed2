//go:build unix

package stdio_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"time"

	"github.com/mcpwasm/mcpwasm/core"
	"github.com/mcpwasm/mcpwasm/transport/stdio"
)

func ExampleNew() {
	// The real @modelcontextprotocol/server-memory, run by node.
	root, err := filepath.Abs("../..")
	if err != nil {
		log.Fatal(err)
	}
	dir, err := os.MkdirTemp("", "memory-")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	tr, err := stdio.New("node", &stdio.Options{
		Args:   []string{filepath.Join(root, "node_modules/@modelcontextprotocol/server-memory/dist/index.js")},
		Env:    []string{"MEMORY_FILE_PATH=" + filepath.Join(dir, "memory.jsonl")},
		Stderr: nil, // the server's log; nil discards it
	})
	if err != nil {
		log.Fatal(err)
	}
	client := core.NewClient(&core.Implementation{Name: "example", Version: "1.0.0"}, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	s, err := client.Connect(ctx, tr, nil)
	if err != nil {
		log.Fatal(err)
	}
	defer s.Close() // closes its stdin; SIGTERM, then SIGKILL if it lingers
	fmt.Println(s.Era(), s.ServerInfo().Name)
	// Output: legacy memory-server
}
