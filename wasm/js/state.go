//go:build js

package main

import (
	"syscall/js"
)

// ended(handle, resolve, reject): settles when the client's current session
// ends: resolve() after close() (or when there is none), reject(errJSON)
// with why it failed otherwise. The glue's client.closed and isConnected
// come from it.
func (b *bridge) ended(_ js.Value, args []js.Value) any {
	c, err := b.entry(arg(args, 0))
	settle(arg(args, 1), arg(args, 2), func() (any, error) {
		if err != nil {
			return nil, nil // a freed client has no session
		}
		s, err := c.sess()
		if err != nil {
			return nil, nil
		}
		<-s.Done()
		return nil, s.Err()
	})
	return nil
}

// live reports whether c is still registered (freeClient has not run).
func (b *bridge) live(c *clientEntry) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, e := range b.clients {
		if e == c {
			return true
		}
	}
	return false
}
