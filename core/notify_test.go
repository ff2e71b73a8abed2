package core

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestElicitWaitersBoundUnclaimedCompletions(t *testing.T) {
	var w elicitWaiters
	w.init()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	waited := make(chan error, 1)
	ch := w.channel("mine") // a call is waiting for "mine"
	go func() { waited <- w.waitFor(ctx, "mine") }()

	for i := range 1000 {
		w.complete(fmt.Sprintf("made-up-%d", i))
	}
	w.mu.Lock()
	n := len(w.done)
	w.mu.Unlock()
	assert.LessOrEqual(t, n, maxUnclaimedElicitations, "completions nobody waits for are bounded")

	w.complete("mine")
	<-ch
	require.NoError(t, <-waited, "the awaited completion still arrives")

	w.complete("early") // before its call waits: remembered
	require.NoError(t, w.waitFor(ctx, "early"))

	canceled, stop := context.WithCancel(context.Background())
	stop()
	require.ErrorIs(t, w.waitFor(canceled, "abandoned"), context.Canceled)
	w.mu.Lock()
	_, left := w.waiting["abandoned"]
	w.mu.Unlock()
	assert.False(t, left, "an abandoned wait leaves nothing behind")
}

// waitFor is how completeURLElicitations waits for one elicitation.
func (w *elicitWaiters) waitFor(ctx context.Context, id string) error {
	defer w.forget(id)
	select {
	case <-w.channel(id):
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
