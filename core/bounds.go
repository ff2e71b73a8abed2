package core

import (
	"context"
	"time"

	"github.com/mcpwasm/mcpwasm/internal/errf"
	"github.com/mcpwasm/mcpwasm/jsonrpc"
)

// notesDropped reports an overflow of the notification queue: when
// dropping starts (over false) and, once the queue has drained, how many
// were dropped (over true).
func (s *Session) notesDropped(queued, dropped int, over bool) {
	if !over {
		s.warn(errf.Errorf("%w: %d notification handlers are waiting to run (ClientOptions.MaxQueuedNotifications); dropping notifications until they have", ErrNotificationsDropped, queued))
		return
	}
	s.warn(errf.Errorf("%w: %d notifications were dropped while the handler queue was full", ErrNotificationsDropped, dropped))
}

// admitServerRequest reserves a slot for a legacy server→client request
// (serveRequest frees it); false means the request is over
// ClientOptions.MaxServerRequests and is refused with an error answer, or
// dropped with a warning when as many refusals are still being sent.
func (s *Session) admitServerRequest(m *jsonrpc.Request) bool {
	s.mu.Lock()
	full := s.serving >= s.client.opts.MaxServerRequests
	if !full {
		s.serving++
	} else {
		if s.refusing >= s.client.opts.MaxServerRequests {
			// Even the refusals are at their limit: drop it.
			s.mu.Unlock()
			s.warn(errStr("%w: dropped %s from the server", ErrTooManyServerRequests, m.Method))
			return false
		}
		s.refusing++
	}
	s.mu.Unlock()
	if !full {
		return true
	}
	s.wg.Add(1)
	go func() {
		version := s.ProtocolVersion()
		resp := &jsonrpc.Response{ID: m.ID, Error: &jsonrpc.Error{Code: CodeInternalError, Message: errf.Sprintf("%v (%d in progress)", ErrTooManyServerRequests, s.client.opts.MaxServerRequests)}}
		ctx, cancel := context.WithTimeout(s.ctx, 10*time.Second)
		if err := s.send(ctx, resp, &SendOptions{ProtocolVersion: version}); err != nil && s.ctx.Err() == nil {
			s.warn(strErr("core: refusing %s: %w", m.Method, err))
		}
		cancel()
		s.mu.Lock()
		s.refusing--
		s.mu.Unlock()
		s.wg.Done()
	}()
	return false
}

// SessionStats are counts of what a session holds, for leak checks and
// monitoring.
type SessionStats struct {
	// Pending is the number of requests waiting for their response.
	Pending int
	// QueuedNotifications is the number of notification handlers waiting
	// to run.
	QueuedNotifications int
	// ServerRequests is the number of legacy server→client requests being
	// handled.
	ServerRequests int
	// Subscriptions is the number of open subscriptions/listen streams.
	Subscriptions int
}

// Stats returns the session's current counts.
func (s *Session) Stats() SessionStats {
	s.mu.Lock()
	st := SessionStats{Pending: len(s.pending), ServerRequests: s.serving, Subscriptions: len(s.subs)}
	s.mu.Unlock()
	st.QueuedNotifications = s.notes.len()
	return st
}
