package sse_test

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/mcpwasm/mcpwasm/internal/sse"
)

func ExampleReader() {
	// A Streamable HTTP response: a priming event, a keep-alive comment and
	// a JSON-RPC message, with mixed line endings.
	stream := "id: 0\r\nretry: 500\r\ndata:\r\n\r\n" +
		": ping\n\n" +
		"id: 1\nevent: message\ndata: {\"jsonrpc\":\"2.0\",\ndata: \"id\":1}\n\n"

	r := sse.NewReader(strings.NewReader(stream), nil)
	for {
		ev, err := r.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			fmt.Println("error:", err)
			return
		}
		if len(ev.Data) == 0 {
			fmt.Printf("priming event, id %q\n", ev.ID)
			continue
		}
		fmt.Printf("%s event, id %q: %s\n", ev.Type, ev.ID, ev.Data)
	}
	retry, _ := r.Retry()
	fmt.Println("reconnect after", retry, "with Last-Event-ID", r.LastEventID())

	// Output:
	// priming event, id "0"
	// message event, id "1": {"jsonrpc":"2.0",
	// "id":1}
	// reconnect after 500ms with Last-Event-ID 1
}

func ExampleAppendEvent() {
	var b []byte
	b = sse.AppendEvent(b, sse.Event{ID: "p"}, 3*time.Second)
	b = sse.AppendEvent(b, sse.Event{Type: "message", Data: []byte("line 1\nline 2"), ID: "7"}, 0)
	os.Stdout.Write(b)

	// Output:
	// id: p
	// retry: 3000
	// data:
	//
	// id: 7
	// event: message
	// data: line 1
	// data: line 2
}
