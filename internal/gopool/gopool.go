// Package gopool runs functions on goroutines that outlive one function.
//
// A goroutine's stack starts small and is copied each time it grows; the
// request pipeline is deep enough to grow it several times, and inside
// WebAssembly creating a goroutine and growing its stack are a measurable
// part of a call. A Pool hands each function to a goroutine that is idle
// (its stack already grown) or starts one; it never queues, so a function
// never waits behind another.
package gopool

import "sync"

// Pool runs functions on reused goroutines. The zero value is not ready:
// use New. It is safe for concurrent use.
type Pool struct {
	_       [0]func()   // not comparable: no generated equality function
	jobs    chan func() // unbuffered: a send succeeds only into an idle goroutine
	quit    chan struct{}
	once    sync.Once
	maxIdle int

	mu   sync.Mutex
	idle int
}

// New returns a Pool that keeps at most maxIdle idle goroutines (they wait
// for work until Close; the rest end when their function returns).
func New(maxIdle int) *Pool {
	return &Pool{jobs: make(chan func()), quit: make(chan struct{}), maxIdle: maxIdle}
}

// Close ends the idle goroutines; functions running now finish, and later
// ones run on goroutines of their own.
func (p *Pool) Close() {
	p.once.Do(func() { close(p.quit) })
}

// Go runs f on an idle goroutine of the pool, or on a new one. It does not
// wait for f.
func (p *Pool) Go(f func()) {
	select {
	case p.jobs <- f:
	default:
		go p.work(f)
	}
}

// Idle returns the number of idle goroutines.
func (p *Pool) Idle() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.idle
}

func (p *Pool) work(f func()) {
	for {
		f()
		f = nil // let f's captures go while idle
		p.mu.Lock()
		if p.idle >= p.maxIdle {
			p.mu.Unlock()
			return
		}
		p.idle++
		p.mu.Unlock()
		select {
		case f = <-p.jobs:
		case <-p.quit:
		}
		p.mu.Lock()
		p.idle--
		p.mu.Unlock()
		if f == nil {
			return
		}
	}
}
