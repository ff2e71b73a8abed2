package inbox

import (
	"context"
	"io"

	"github.com/mcpwasm/mcpwasm/jsonrpc"
)

// Recv takes the next message from in. Once done is closed it still returns
// the messages already queued, then fatal() — io.EOF when that is nil (an
// orderly end). It returns ctx.Err() when ctx ends first. It is safe for
// concurrent use if fatal is.
func Recv(ctx context.Context, in <-chan jsonrpc.Message, done <-chan struct{}, fatal func() error) (jsonrpc.Message, error) {
	select {
	case m := <-in:
		return m, nil
	case <-done:
		select {
		case m := <-in:
			return m, nil
		default:
		}
		if err := fatal(); err != nil {
			return nil, err
		}
		return nil, io.EOF
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}
