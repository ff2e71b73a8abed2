package inbox_test

import (
	"context"
	"errors"
	"io"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	"github.com/mcpwasm/mcpwasm/internal/inbox"
	"github.com/mcpwasm/mcpwasm/jsonrpc"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

func TestRecv(t *testing.T) {
	broken := errors.New("stream broke")
	msg := &jsonrpc.Request{Method: "notifications/progress"}
	tests := []struct {
		name     string
		queued   bool
		done     bool
		canceled bool
		fatal    error
		wantMsg  bool
		wantErr  error
	}{
		{name: "queued message", queued: true, wantMsg: true},
		{name: "queued message survives the end", queued: true, done: true, fatal: broken, wantMsg: true},
		{name: "orderly end is EOF", done: true, wantErr: io.EOF},
		{name: "failed end reports the failure", done: true, fatal: broken, wantErr: broken},
		{name: "canceled context", canceled: true, wantErr: context.Canceled},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := make(chan jsonrpc.Message, 1)
			done := make(chan struct{})
			if tt.queued {
				in <- msg
			}
			if tt.done {
				close(done)
			}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			if tt.canceled {
				cancel()
			}
			got, err := inbox.Recv(ctx, in, done, func() error { return tt.fatal })
			if tt.wantMsg {
				require.NoError(t, err)
				assert.Same(t, msg, got)
				return
			}
			require.ErrorIs(t, err, tt.wantErr)
			assert.Nil(t, got)
		})
	}
}
