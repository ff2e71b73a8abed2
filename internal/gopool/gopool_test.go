package gopool_test

import (
	"sync"
	"testing"

	"go.uber.org/goleak"

	"github.com/stretchr/testify/assert"

	"github.com/mcpwasm/mcpwasm/internal/gopool"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

func TestPoolRunsEveryFunctionWithoutQueueing(t *testing.T) {
	p := gopool.New(2)
	// Ten functions that each wait for all ten to start: only possible if
	// none waits behind another.
	var started, release sync.WaitGroup
	started.Add(10)
	release.Add(1)
	var done sync.WaitGroup
	done.Add(10)
	for range 10 {
		p.Go(func() {
			started.Done()
			release.Wait()
			done.Done()
		})
	}
	started.Wait()
	release.Done()
	done.Wait()
	assert.Eventually(t, func() bool { return p.Idle() == 2 }, 5e9, 1e6, "at most maxIdle goroutines stay")
	p.Close()
	assert.Eventually(t, func() bool { return p.Idle() == 0 }, 5e9, 1e6, "Close ends the idle goroutines")
}

func TestPoolReusesIdleGoroutines(t *testing.T) {
	p := gopool.New(1)
	ch := make(chan struct{})
	p.Go(func() { ch <- struct{}{} })
	<-ch
	assert.Eventually(t, func() bool { return p.Idle() == 1 }, 5e9, 1e6)
	p.Go(func() { ch <- struct{}{} })
	<-ch
	assert.Eventually(t, func() bool { return p.Idle() == 1 }, 5e9, 1e6)
	p.Close()
	p.Go(func() { ch <- struct{}{} }) // after Close: on a goroutine of its own
	<-ch
}
