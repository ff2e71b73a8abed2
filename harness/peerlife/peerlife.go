package peerlife

import (
	"context"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"
)

// Wait blocks until the process is interrupted (SIGINT, SIGTERM), its
// standard input reaches its end (see [StdinClosed]), or maxLife has
// passed.
func Wait(maxLife time.Duration) {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	t := time.NewTimer(maxLife)
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-StdinClosed():
	case <-t.C:
	}
}

// StdinClosed returns a channel closed when standard input — when it is a
// pipe or socket held by a parent — reaches its end. A terminal or
// /dev/null on stdin is ignored (the channel never closes), so the servers
// can be run by hand.
func StdinClosed() <-chan struct{} {
	done := make(chan struct{})
	if fi, err := os.Stdin.Stat(); err == nil && fi.Mode()&(os.ModeNamedPipe|os.ModeSocket) != 0 {
		go func() {
			_, _ = io.Copy(io.Discard, os.Stdin)
			close(done)
		}()
	}
	return done
}
