package bridge

import (
	"context"
	"encoding/json"
	"os"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpwasm/mcpwasm/core"
	"github.com/mcpwasm/mcpwasm/internal/rawjson"
	"github.com/mcpwasm/mcpwasm/tests/peerproc"
	"github.com/mcpwasm/mcpwasm/transport/fetch"
)

func TestMain(m *testing.M) {
	code := m.Run()
	peerproc.Cleanup()
	os.Exit(code)
}

// TestCall runs the method table against the Go SDK's server in both
// eras: the era-independent methods reach the session's own methods (a
// modern server has no ping or logging/setLevel on the wire), tools/call
// and the rest go through the pipeline, and the session info describes the
// connection.
func TestCall(t *testing.T) {
	for _, modern := range []bool{true, false} {
		t.Run(map[bool]string{true: "modern", false: "legacy"}[modern], func(t *testing.T) {
			origin := peerproc.GoSDKServer(t, peerproc.DemoOptions{Modern: modern})
			cfg, err := DecodeClientConfig([]byte(`{"clientInfo":{"name":"bridge-test","version":"1"}}`))
			require.NoError(t, err)
			impl, opts, err := cfg.Options(&recorder{})
			require.NoError(t, err)
			tr, err := fetch.New(origin+peerproc.MCPPath, nil)
			require.NoError(t, err)
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			s, err := core.NewClient(impl, opts).Connect(ctx, tr, nil)
			require.NoError(t, err)
			defer s.Close()

			info := Info(s)
			assert.Equal(t, map[bool]string{true: "modern", false: "legacy"}[modern], info.Era)
			require.NotNil(t, info.ServerInfo)
			assert.NotEmpty(t, info.ServerInfo.Name)

			for _, c := range []struct{ method, params string }{
				{core.MethodPing, ""},
				{core.MethodSetLevel, `{"level":"warning"}`},
			} {
				raw, err := Call(ctx, s, c.method, rawjson.RawMessage(c.params), nil)
				require.NoError(t, err, c.method)
				assert.JSONEq(t, `{}`, string(raw), c.method)
			}
			raw, err := Call(ctx, s, core.MethodCallTool, rawjson.RawMessage(`{"name":"add","arguments":{"a":2,"b":3}}`), (&CallOptions{TimeoutMs: ms(0)}).Core())
			require.NoError(t, err)
			var res core.CallToolResult
			require.NoError(t, json.Unmarshal(raw, &res))
			require.NotEmpty(t, res.Content)
			assert.Equal(t, "5", res.Content[0].Text)
			raw, err = Call(ctx, s, core.MethodListTools, nil, nil)
			require.NoError(t, err)
			assert.Contains(t, string(raw), `"add"`)

			_, err = Call(ctx, s, core.MethodSetLevel, rawjson.RawMessage(`{"level":7}`), nil)
			var ce *ConfigError
			require.ErrorAs(t, err, &ce, "malformed params of a mapped method")
			_, err = Call(ctx, s, core.MethodCallTool, rawjson.RawMessage(`{"name":"slow","arguments":{"ms":5000}}`), (&CallOptions{TimeoutMs: ms(50)}).Core())
			assert.Equal(t, KindTimeout, ErrorInfo(err, TaskStateJS).Kind, "%v", err)
		})
	}
}
