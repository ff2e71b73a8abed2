package core

import (
	"context"
	"errors"
	"slices"

	"github.com/mcpwasm/mcpwasm/internal/errf"
	"github.com/mcpwasm/mcpwasm/internal/jsonscan"
	"github.com/mcpwasm/mcpwasm/jsonrpc"
)

// legacyFallback means the modern probe identified a legacy server.
type legacyFallback struct {
	_       [0]func() // not comparable: no generated equality function
	version string    // a legacy version the server named, if any
	cause   error
}

func (e *legacyFallback) Error() string {
	return errf.Sprintf("core: server is not modern: %v", e.cause)
}

// splitVersions splits the configured versions by era. It and
// pickVersion are not inlined: they run at the handshake and renegotiation
// only, and each inlined copy of their loops costs more than the call.
//
//go:noinline
func splitVersions(vs []string) (modern, legacy []string) {
	for _, v := range vs {
		if IsModernVersion(v) {
			modern = append(modern, v)
		} else {
			legacy = append(legacy, v)
		}
	}
	return modern, legacy
}

// hasString is slices.Contains for the cold places that ask, not inlined.
//
//go:noinline
func hasString(list []string, s string) bool { return slices.Contains(list, s) }

// pickVersion returns the first of ours that the server supports.
//
//go:noinline
func pickVersion(ours, theirs []string) (string, bool) {
	for _, v := range ours {
		if hasString(theirs, v) {
			return v, true
		}
	}
	return "", false
}

// handshake determines the era and negotiates the version.
func (s *Session) handshake(ctx context.Context) error {
	modern, legacy := splitVersions(s.versions)
	cached := s.client.cachedEra(s.eraKey)
	legacyVersion := ""
	if len(legacy) > 0 {
		legacyVersion = legacy[0]
	}
	var probeErr error // why the modern probe concluded the server is legacy
	if len(modern) > 0 && (cached != EraLegacy || len(legacy) == 0) {
		err := s.probeModern(ctx, modern, legacy)
		if err == nil {
			s.client.setEra(s.eraKey, EraModern)
			return nil
		}
		var fb *legacyFallback
		if !errf.As(err, &fb) {
			return err
		}
		if len(legacy) == 0 {
			return errf.Errorf("%w: this client accepts only %v: %w", ErrUnsupportedVersion, modern, fb.cause)
		}
		if fb.version != "" {
			legacyVersion = fb.version
		}
		probeErr = fb.cause
	}
	if len(legacy) == 0 {
		return wrap(ErrUnsupportedVersion, "no protocol versions configured")
	}
	err := s.initialize(ctx, legacyVersion)
	if err != nil && probeErr != nil {
		// Neither era worked: report both attempts.
		err = errf.Errorf("%w (before that, the modern probe failed: %v)", err, probeErr)
	}
	if err != nil && cached == EraLegacy && len(modern) > 0 && isModernSignal(err) {
		// The cached verdict is stale: the server became modern.
		s.client.setEra(s.eraKey, EraUnknown)
		if perr := s.probeModern(ctx, modern, legacy); perr == nil {
			s.client.setEra(s.eraKey, EraModern)
			return nil
		}
	}
	if err != nil {
		return err
	}
	s.client.setEra(s.eraKey, EraLegacy)
	return nil
}

func isModernSignal(err error) bool {
	var rpc *RPCError
	return errf.As(err, &rpc) && IsModernError(rpc.Code)
}

// probeModern sends server/discover with a modern version, retrying with a
// mutually supported version on UnsupportedProtocolVersionError.
func (s *Session) probeModern(ctx context.Context, modern, legacy []string) error {
	v := modern[0]
	var lastErr error
	for attempt := 0; attempt < 3; attempt++ {
		// Over HTTP a legacy server answers the probe with a status, and
		// the first request may legitimately wait for an interactive
		// authorization: only the caller's ctx bounds it. Elsewhere (a
		// stdio-like pipe) a legacy server may stay silent, so the probe
		// has its own timeout.
		pctx, cancel := ctx, context.CancelFunc(func() {})
		if !s.mirrors {
			pctx, cancel = context.WithTimeout(ctx, s.client.opts.ProbeTimeout)
		}
		raw, err := s.call(pctx, MethodDiscover, nil, &CallOptions{NoCache: true, Timeout: -1}, &callEra{era: EraModern, version: v})
		cancel()
		var rpc *RPCError
		switch {
		case err == nil:
		case errors.Is(err, ErrNotModern):
			return &legacyFallback{cause: err}
		case errf.As(err, &rpc):
			if rpc.Code == CodeUnsupportedProtocolVersion {
				sup := rpc.Supported()
				if next, ok := pickVersion(modern, sup); ok {
					v, lastErr = next, err
					continue
				}
				return s.noModernVersion(legacy, sup, err)
			}
			if IsModernError(rpc.Code) {
				return err
			}
			return &legacyFallback{cause: err}
		case !s.mirrors && (errors.Is(err, ErrTimeout) || (errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil)):
			// A legacy server may ignore the unknown method (stdio rule).
			return &legacyFallback{cause: err}
		default:
			return err
		}
		var res DiscoverResult
		if err := decodeDiscoverResult(raw, &res); err != nil || res.SupportedVersions == nil {
			return &legacyFallback{cause: wrap(ErrInvalidResult, "server/discover answered without supportedVersions")}
		}
		if !hasString(res.SupportedVersions, v) {
			next, ok := pickVersion(modern, res.SupportedVersions)
			if !ok {
				return s.noModernVersion(legacy, res.SupportedVersions, nil)
			}
			v = next
		}
		s.commitDiscover(v, &res, raw)
		return nil
	}
	return errf.Errorf("%w: version negotiation did not converge: %w", ErrUnsupportedVersion, lastErr)
}

// noModernVersion is the probe's answer when the server supports none of
// the client's modern versions: a fallback to a legacy version both
// support (cause nil: the server's list), or an error.
func (s *Session) noModernVersion(legacy, sup []string, cause error) error {
	if lv, ok := pickVersion(legacy, sup); ok {
		if cause == nil {
			cause = errf.Errorf("server supports %v", sup)
		}
		return &legacyFallback{version: lv, cause: cause}
	}
	return errf.Errorf("%w: server supports %v, client %v", ErrUnsupportedVersion, sup, s.versions)
}

func (s *Session) commitDiscover(v string, res *DiscoverResult, raw RawMessage) {
	// _meta["io.modelcontextprotocol/serverInfo"], read as encoding/json
	// would into a struct of that shape (errors leave what was read).
	var m serverInfoMeta
	_ = decodeShape(raw, &m)
	info := m.Meta.ServerInfo
	if info != nil {
		res.ServerInfo = info
	}
	s.mu.Lock()
	s.era = EraModern
	s.setVersionLocked(v)
	s.discover = res
	s.serverInfo = res.ServerInfo
	s.serverCaps = res.Capabilities
	s.instructions = res.Instructions
	s.mu.Unlock()
}

// setVersionLocked records the protocol version and precomputes the
// modern _meta members sent with every request.
func (s *Session) setVersionLocked(v string) {
	if s.version != "" && s.version != v {
		s.cache.clear()
	}
	s.version = v
	s.rebuildMetaLocked()
}

// rebuildMetaLocked recomputes the modern _meta members. It is not
// inlined, nor are getMember, memberIndex, terminalStatus, Task.ID and
// closedErrLocked: with the wasm backend their inlined copies at many call
// sites cost more bytes than the calls.
//
//go:noinline
func (s *Session) rebuildMetaLocked() {
	if s.era != EraModern {
		s.metaMembers, s.metaJSON = nil, nil
		return
	}
	s.metaMembers = s.modernMeta(s.version, s.logLevel)
	s.metaJSON = appendObject(nil, s.metaMembers)
}

// modernMeta returns the _meta members of a modern request: the protocol
// version, the client's capabilities and identity, and the log level if set.
func (s *Session) modernMeta(version, logLevel string) []jsonscan.Member {
	ver := jsonscan.AppendString(nil, version)
	ms := []jsonscan.Member{{Key: MetaProtocolVersion, Val: ver}, {Key: MetaClientCapabilities, Val: s.capsJSON}, {Key: MetaClientInfo, Val: s.infoJSON}}
	if logLevel != "" {
		lvl := jsonscan.AppendString(nil, logLevel)
		ms = append(ms, jsonscan.Member{Key: MetaLogLevel, Val: lvl})
	}
	return ms
}

// initialize runs the legacy handshake.
func (s *Session) initialize(ctx context.Context, v string) error {
	caps := s.client.Capabilities()
	params, err := marshalInitializeParams(&InitializeParams{ProtocolVersion: v, Capabilities: caps, ClientInfo: &s.client.impl})
	if err != nil {
		return err
	}
	raw, err := s.call(ctx, MethodInitialize, params, &CallOptions{NoCache: true}, &callEra{era: EraLegacy})
	if err != nil {
		return err
	}
	var res InitializeResult
	if err := decodeInitializeResult(raw, &res); err != nil {
		return wrapWhat(ErrInvalidResult, "initialize", err)
	}
	_, legacy := splitVersions(s.versions)
	if !hasString(legacy, res.ProtocolVersion) {
		return errf.Errorf("%w: server chose %q, client accepts %v", ErrUnsupportedVersion, res.ProtocolVersion, legacy)
	}
	s.mu.Lock()
	s.era = EraLegacy
	s.setVersionLocked(res.ProtocolVersion)
	s.initResult = &res
	s.serverInfo = res.ServerInfo
	s.serverCaps = res.Capabilities
	s.instructions = res.Instructions
	s.mu.Unlock()
	return s.send(ctx, &jsonrpc.Request{Method: NotificationInitialized}, &SendOptions{ProtocolVersion: res.ProtocolVersion})
}

// reinitialize re-runs the legacy handshake after the server forgot the
// session (HTTP 404), once per expiry however many calls noticed it.
func (s *Session) reinitialize(ctx context.Context, gen int64) error {
	s.reinitMu.Lock()
	defer s.reinitMu.Unlock()
	if s.reinitN.Load() != gen {
		return nil // another call already re-initialized
	}
	if err := s.initialize(ctx, s.ProtocolVersion()); err != nil {
		return errf.Errorf("core: re-initializing expired session: %w", err)
	}
	s.reinitN.Add(1)
	s.restoreLegacyState(ctx)
	return nil
}

func (s *Session) generation() int64 { return s.reinitN.Load() }

// afterConnect applies session settings once the handshake is done.
func (s *Session) afterConnect(ctx context.Context) {
	lvl := s.client.opts.LogLevel
	if s.Era() == EraModern {
		if lvl != "" {
			s.mu.Lock()
			s.logLevel = lvl
			s.rebuildMetaLocked()
			s.mu.Unlock()
		}
		s.managed.init(s)
		s.managed.refresh(ctx)
		return
	}
	if lvl != "" && s.ServerCapabilities().Logging != nil {
		if err := s.SetLogLevel(ctx, lvl); err != nil {
			s.warn(errf.Errorf("core: setting log level: %w", err))
		}
	}
}

// restoreLegacyState re-applies the log level and subscriptions on a new
// legacy session. Its requests are pinned to the new session's version, as
// the handshake's are: one that finds the session expired again is
// reported, not re-initialized from inside reinitialize (whose reinitMu
// this goroutine holds).
func (s *Session) restoreLegacyState(ctx context.Context) {
	s.mu.Lock()
	lvl := s.logLevel
	pin := &callEra{era: EraLegacy, version: s.version}
	s.mu.Unlock()
	if lvl != "" {
		if _, err := s.call(ctx, MethodSetLevel, stringParams("level", lvl), nil, pin); err != nil {
			s.warn(errf.Errorf("core: restoring log level: %w", err))
		}
	}
	for _, uri := range s.managed.uris() {
		if _, err := s.call(ctx, MethodSubscribe, stringParams("uri", uri), nil, pin); err != nil {
			s.warn(strErr("core: restoring subscription to %s: %w", uri, err))
		}
	}
}

// stringParams encodes params with one string member (the encoding of
// SetLevelParams, SubscribeParams and the like without _meta).
func stringParams(key, val string) RawMessage {
	b := append(jsonscan.AppendString(append(make([]byte, 0, len(key)+len(val)+8), '{'), key), ':')
	return append(jsonscan.AppendString(b, val), '}')
}
