package guest

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpwasm/mcpwasm/wasm/abi"
)

// TestResilienceConfig: the retry policy, keepalive and bounds of the
// client configuration are accepted (the configuration is decoded
// strictly: a member the guest did not know would be refused) and reach
// the client.
func TestResilienceConfig(t *testing.T) {
	g := New(newScriptedHost())
	id := newClient(t, g, `{"clientInfo":{"name":"t","version":"1"},"retry":{"attempts":2,"delayMs":10,"maxDelayMs":100},"keepAliveMs":60000,"maxQueuedNotifications":10,"maxServerRequests":4}`)
	c := g.clients[id]
	require.NotNil(t, c)
	opts := c.c.Options()
	require.NotNil(t, opts.Retry)
	assert.Equal(t, 2, opts.Retry.Attempts)
	assert.Equal(t, int64(10), opts.Retry.Delay.Milliseconds())
	assert.Equal(t, int64(60000), opts.KeepAlive.Milliseconds())
	assert.Equal(t, 10, opts.MaxQueuedNotifications)
	assert.Equal(t, 4, opts.MaxServerRequests)

	_, err := g.NewClient([]byte(`{"clientInfo":{"name":"t","version":"1"},"retry":3}`))
	assert.Equal(t, abi.StatusInvalid, statusOf(err))
}
