// Package auth is mcpwasm's OAuth 2.1 client for MCP servers on HTTP: the
// authorization of the MCP specification (2025-03-26 through 2026-07-28)
// and its authorization extensions, as a fetch.Doer middleware.
//
// Wrap the transport's Doer:
//
//	doer := auth.NewDoer(nil, &auth.Options{UserAgent: ua})
//	t, err := fetch.New(serverURL, &fetch.Options{HTTP: doer})
//
// (fetch.Options cannot carry auth options itself: this package imports
// fetch.) The Doer sends each request as is until a server refuses it;
// then:
//
//  1. A 401 carries a WWW-Authenticate challenge (Bearer or DPoP) whose
//     resource_metadata, scope and error parameters it reads. If the
//     header is missing, or hidden from a browser by CORS
//     (fetch.Response.Hidden), discovery goes on without it.
//  2. Protected resource metadata (RFC 9728) comes from the challenge's
//     URL, else from the path-aware well-known URL, else from the root one.
//     Its resource must cover the request's URL (same origin, the request's
//     path at or below the resource's); otherwise no authorization starts
//     (ErrResourceMismatch). A server without any (2025-03-26) has its
//     authorization server at its origin.
//  3. Authorization server metadata (RFC 8414, OpenID Connect discovery)
//     is fetched from every well-known form in the order MCP prescribes;
//     its issuer must equal the one the URL was built from. A 2025-03-26
//     server without metadata gets /authorize, /token and /register at its
//     origin.
//  4. A token for the resource from that issuer in the Store, or a
//     refresh of the refused one, may settle it. Otherwise the client is
//     identified — pre-registered credentials (Options.Client, bound to
//     one issuer), a registration made earlier (Store, keyed by issuer), a
//     Client ID Metadata Document (Options.ClientMetadataURL, when the
//     server supports them), or dynamic client registration with an
//     application_type — and the grant runs: the authorization code grant
//     with PKCE (S256), state and RFC 9207 iss validation through a
//     UserAgent, or (extensions) client credentials with a secret or
//     private_key_jwt, or a JWT bearer assertion (workload identity, or an
//     ID-JAG from the user's identity provider: IDJAG). Authorization and
//     token requests carry the RFC 8707 resource; the token endpoint
//     authentication is the one the server advertises
//     (client_secret_basic, client_secret_post, private_key_jwt or none).
//  5. The request is retried with the token. Scopes: the challenge's, else
//     the resource's scopes_supported, else none; offline_access is added
//     when the authorization server supports it. A 403 insufficient_scope
//     (or a 403 whose challenge names a scope without an error code, as the
//     Go SDK's middleware sends) re-authorizes with the union of the scopes
//     requested so far and the challenged ones. Tokens the server keeps
//     refusing stop the Doer after Options.MaxAuthorizations attempts
//     (ErrRetryLimit). A DPoP use_dpop_nonce challenge is answered by one
//     retry with the server's nonce.
//
// A token is attached only to requests for the protected resource it was
// issued for (same origin, path at or below the resource's), redirects of
// such requests are followed by the Doer itself so that the token never
// follows one elsewhere, and expired tokens are refreshed before they are
// sent. With Options.DPoP tokens are sender-constrained (RFC 9449): DPoP
// proofs at the token endpoint and on every request, with server nonces.
//
// User agents: HeadlessAgent reads the authorization server's redirect
// without following it (for servers that need no user, like the MCP
// conformance suite's); LoopbackCallback (native programs) receives the
// redirect on 127.0.0.1 and leaves opening the URL to the application;
// the JS package supplies a page's popup and the page's own redirect.
// Storage: MemoryStore by default; implement Store to persist
// registrations and tokens.
//
// An authorization can outlive the page that started it: a user agent that
// sends the whole page to the authorization server returns ErrRedirected,
// the Doer keeps the PKCE verifier and state in the Store (a PendingStore),
// and the page loaded again at the redirect URI finishes it with a Doer
// made with Options.CallbackURL — state, iss and PKCE checked as always.
//
// The package does no platform I/O of its own (all HTTP goes through the
// fetch.Doer) except [LoopbackCallback]. Its cryptography is injected:
// [Options].Random and [Options].SHA256 default to crypto/rand and
// crypto/sha256 natively, and [ParseSigner] and [GenerateSigner] use
// crypto/ecdsa and crypto/rsa. The GOOS=js build links no Go crypto (it
// would add some 50 KB gzip to the WebAssembly module) and imports no
// syscall/js: there the caller passes the random source, the hash and the
// [Signer]s (mcpwasm's JavaScript module passes WebCrypto's), and a [Doer]
// without them fails with [ErrNoCrypto].
package auth
