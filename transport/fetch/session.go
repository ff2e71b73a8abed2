package fetch

import (
	"strings"

	"github.com/mcpwasm/mcpwasm/core"
	"github.com/mcpwasm/mcpwasm/internal/errf"
)

// sessionGone reports whether a legacy server's answer to a request that
// carried an Mcp-Session-Id says it no longer knows the session:
//
//   - 404, as the specification prescribes;
//   - 400 whose body mentions the session, which is what servers written
//     from the TypeScript SDK v1 examples (server-everything among them)
//     send for an unknown or expired session: "Bad Request: No valid
//     session ID provided".
//
// Any other 400 is a plain error. The session re-initializes once per call
// (core.ErrSessionExpired), so a server that refuses every session cannot
// make the client loop.
func sessionGone(status int, body []byte) bool {
	switch status {
	case 404:
		return true
	case 400:
		return strings.Contains(strings.ToLower(string(body)), "session")
	}
	return false
}

// expired forgets session id sid and returns the error that makes the
// session re-initialize.
func (c *conn) expired(sid string, se *StatusError) error {
	c.mu.Lock()
	if c.sessionID == sid {
		c.sessionID = ""
	}
	c.mu.Unlock()
	return errf.Errorf("%w: %w", core.ErrSessionExpired, se)
}
