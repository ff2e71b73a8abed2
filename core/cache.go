package core

import (
	"strconv"
	"sync"
	"time"
)

// resultCache holds cacheable results (2026-07-28 ttlMs/cacheScope) of one
// session: keyed by method and the params that affect the result, fresh
// for ttlMs after receipt, invalidated by list-changed and
// resource-updated notifications. A session is one authorization context,
// so private and public results may both be kept here.
type resultCache struct {
	clock   clock // the client's; set once by newSession
	mu      sync.Mutex
	entries map[string]*cacheEntry
}

type cacheEntry struct {
	method  string
	uri     string
	result  RawMessage
	expires time.Time
}

func (c *resultCache) get(key string) (RawMessage, bool) {
	c.mu.Lock()
	e := c.entries[key]
	if e != nil && !c.clock.Now().Before(e.expires) {
		delete(c.entries, key)
		e = nil
	}
	c.mu.Unlock()
	if e == nil {
		return nil, false
	}
	return e.result, true
}

// put stores result if ttlMs, the raw value of its ttlMs member, is a
// positive number.
func (c *resultCache) put(key, method, uri string, result, ttlMs RawMessage) {
	ms, err := strconv.ParseFloat(string(ttlMs), 64)
	if err != nil || ms <= 0 {
		return
	}
	ttl := time.Duration(ms * float64(time.Millisecond))
	c.mu.Lock()
	if c.entries == nil {
		c.entries = map[string]*cacheEntry{}
	}
	c.entries[key] = &cacheEntry{method: method, uri: uri, result: result, expires: c.clock.Now().Add(ttl)}
	c.mu.Unlock()
}

func (c *resultCache) invalidateMethod(method string) {
	c.mu.Lock()
	for k, e := range c.entries {
		if e.method == method {
			delete(c.entries, k)
		}
	}
	c.mu.Unlock()
}

func (c *resultCache) invalidateResource(uri string) {
	c.mu.Lock()
	for k, e := range c.entries {
		if e.method == MethodReadResource && e.uri == uri {
			delete(c.entries, k)
		}
	}
	c.mu.Unlock()
}

func (c *resultCache) clear() {
	c.mu.Lock()
	c.entries = nil
	c.mu.Unlock()
}

func (c *resultCache) len() int {
	c.mu.Lock()
	v := len(c.entries)
	c.mu.Unlock()
	return v
}
