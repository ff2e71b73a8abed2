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
	schema "github.com/mcpwasm/mcpwasm/internal/bridge"
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

// platformAuthCrypto is the cryptography the JavaScript runtime gives the
// OAuth doer: WebCrypto's random source, the package's SHA-256 (the module
// links no Go crypto) and signers whose keys live in WebCrypto.
func platformAuthCrypto() schema.AuthCrypto {
	return schema.AuthCrypto{
		Random:         jscrypto.Reader{},
		SHA256:         jscrypto.Sum256,
		ParseSigner:    func(pem []byte) (auth.Signer, error) { return jscrypto.ParseSigner(pem) },
		GenerateSigner: func() (auth.Signer, error) { return jscrypto.GenerateSigner() },
	}
}

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
