package wasihost

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/mcpwasm/mcpwasm/tests/peerproc"
	"github.com/mcpwasm/mcpwasm/wasm/abi"
)

// BenchmarkEcho measures sequential tools/call round trips through the
// module (request export, HTTP by the host, result event) against the Go
// SDK server in-process.
func BenchmarkEcho(b *testing.B) {
	for _, era := range []struct {
		name string
		opts peerproc.DemoOptions
	}{{"modern", peerproc.DemoOptions{Modern: true}}, {"legacy", peerproc.DemoOptions{}}} {
		b.Run(era.name, func(b *testing.B) {
			h := newHostB(b)
			url := peerproc.GoSDKServer(b, era.opts) + peerproc.MCPPath
			s, err := h.Connect(b.Context(), url, nil)
			require.NoError(b, err)
			defer s.Close()
			params := map[string]any{"name": "echo", "arguments": map[string]any{"text": "hello"}}
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				if _, err := s.Request(b.Context(), "tools/call", params, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkIdlePoll measures mcpwasm_poll when the guest has nothing to
// do: the cost of each pump tick.
func BenchmarkIdlePoll(b *testing.B) {
	h := newHostB(b)
	err := h.do(func() error {
		for b.Loop() {
			if _, err := h.call(abi.ExportPoll); err != nil {
				return err
			}
		}
		return nil
	})
	require.NoError(b, err)
}
