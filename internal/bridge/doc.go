// Package bridge is the platform-free half of mcpwasm's two WebAssembly
// bridges: the GOOS=js module (wasm/js, behind the npm package) and the
// GOOS=wasip1 reactor (wasm/wasip1, driven by wasm/wasihost or any WASI
// host). Both hand their host's requests to this package, which owns
//
//   - the configuration schema: [ClientConfig], [ConnectConfig],
//     [AuthConfig] and [CallOptions], decoded from one JSON shape
//     ([Decode]) whatever the host, with one meaning per option (see
//     docs/configuration.md);
//   - the assembly of a [core.Client] from that configuration
//     ([ClientConfig.Options]) and of the OAuth [fetch.Doer] ([AuthDoer]);
//   - the server-request callbacks a host implements ([Callbacks], [AuthHooks]);
//   - the method table that maps a bridge call onto a [core.Session]
//     method ([Call]);
//   - the classification of errors into {kind, code, message, data,
//     status} ([ErrorInfo]).
//
// What stays in the hosts is plumbing only: Promises and js.Func values in
// wasm/js; the event queue, buffers and exports in wasm/wasip1.
//
// # Milliseconds and timeouts
//
// Every duration in the schema is a whole number of milliseconds
// ([Millis]; a fraction is rounded up, so 0.5 never becomes 0). For every
// timeout the same rule holds: absent means the default, 0 or a negative
// value means no limit. Options whose wait must stay bounded (the
// modern-era probe, an authorization) refuse 0 and negative values instead
// of waiting forever.
//
// The package has no build tags and no syscall/js; plain go test covers it.
package bridge
