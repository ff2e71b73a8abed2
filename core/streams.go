package core

// Warner is implemented by connections that report problems which do not
// end the connection, such as a background stream that gave up
// reconnecting. The session calls SetWarn once, before it sends anything,
// with a function that forwards to ClientOptions.OnWarning.
type Warner interface {
	SetWarn(func(error))
}

// BackgroundStream is implemented by connections that keep a stream of
// their own for messages outside any request (the legacy GET stream of
// Streamable HTTP). BackgroundStreamErr returns nil while that stream is up
// or being re-established, and why it was given up otherwise.
type BackgroundStream interface {
	BackgroundStreamErr() error
}

// BackgroundStreamErr reports whether the connection's stream for server
// messages outside any request (the legacy GET stream) has been given up:
// nil while it runs or is being re-established, or when the transport has
// no such stream; the reason otherwise (also sent to OnWarning). Calls still
// work; server requests and notifications outside them no longer arrive.
func (s *Session) BackgroundStreamErr() error {
	if b, ok := s.conn.(BackgroundStream); ok {
		return b.BackgroundStreamErr()
	}
	return nil
}
