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
// standard input — when it is a pipe or socket held by a parent — reaches
// its end, or maxLife has passed. A terminal or /dev/null on stdin is
// ignored, so the servers can be run by hand.
func Wait(maxLife time.Duration) {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	stdinClosed := make(chan struct{})
	if fi, err := os.Stdin.Stat(); err == nil && fi.Mode()&(os.ModeNamedPipe|os.ModeSocket) != 0 {
		go func() {
			_, _ = io.Copy(io.Discard, os.Stdin)
			close(stdinClosed)
		}()
	}
	t := time.NewTimer(maxLife)
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-stdinClosed:
	case <-t.C:
	}
}
