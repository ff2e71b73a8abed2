//go:build js

package main

// The JavaScript implementations the library takes through plain Go
// interfaces, wired in one place: the library's packages (core, auth,
// transport/fetch, transport/ws, internal/jsonschema) import no syscall/js,
// and every syscall/js user lives under internal/js.

import (
	"syscall/js"

	"github.com/mcpwasm/mcpwasm/auth"
	"github.com/mcpwasm/mcpwasm/core"
	jscrypto "github.com/mcpwasm/mcpwasm/internal/js/crypto"
	jsfetch "github.com/mcpwasm/mcpwasm/internal/js/fetch"
	jsregex "github.com/mcpwasm/mcpwasm/internal/js/regex"
	jsws "github.com/mcpwasm/mcpwasm/internal/js/ws"
	"github.com/mcpwasm/mcpwasm/transport/fetch"
	"github.com/mcpwasm/mcpwasm/transport/ws"
)

// platformClient sets the client options the JavaScript runtime provides:
// schema patterns with the JavaScript engine's Unicode property tables.
func platformClient(o *core.ClientOptions) { o.Pattern = jsregex.Pattern }

// platformAuth sets the OAuth options the JavaScript runtime provides:
// WebCrypto's random source and the package's SHA-256 (the module links no
// Go crypto).
func platformAuth(o *auth.Options) {
	o.Random = jscrypto.Reader{}
	o.SHA256 = jscrypto.Sum256
}

// parseSigner and generateSigner make signers whose keys live in WebCrypto.
func parseSigner(pem []byte) (auth.Signer, error) { return jscrypto.ParseSigner(pem) }
func generateSigner() (auth.Signer, error)        { return jscrypto.GenerateSigner() }

// fetchDoer is the JavaScript fetch as a transport/fetch Doer: the page's
// own fetch function when one was passed, the fast lane's helper when
// installed.
func fetchDoer(credentials, mode string, fetchFn js.Value, host *jsfetch.HostLink) (fetch.Doer, error) {
	return jsfetch.NewDoer(&jsfetch.Options{
		Credentials: credentials,
		Mode:        mode,
		Hook:        jsfetch.Hook{Fetch: fetchFn, Host: host},
	})
}

// wsDialer is the runtime's WebSocket class as a transport/ws Dialer.
func wsDialer() ws.Dialer { return jsws.Dialer{} }
