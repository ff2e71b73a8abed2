//go:build js

package main

// ended(handle, resolve, reject): settles when the client's current session
// ends: resolve() after close() (or when there is none), reject(errJSON)
// with why it failed otherwise. The glue's client.closed and isConnected
// come from it.
func (b *bridge) ended(o *op) (any, error) {
	s, err := o.c.sess()
	if err != nil {
		return nil, nil // no session
	}
	<-s.Done()
	return nil, s.Err()
}

// live reports whether c is still registered (freeClient has not run).
func (b *bridge) live(c *clientEntry) bool {
	b.mu.Lock()
	live := false
	for _, e := range b.clients {
		if e == c {
			live = true
		}
	}
	b.mu.Unlock()
	return live
}
