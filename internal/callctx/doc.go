// Package callctx is the context a session's call sends its request
// under: the caller's context, which the call's own timers and its
// transport can end too, without a context of its own per call.
//
// A call used to derive one (context.WithCancelCause), and the HTTP doer
// under it watched that one (context.AfterFunc): two contexts, a children
// map and a done channel each, and their locks, on every call, for
// endings that almost never happen. Natively that was ≈ 5 µs of the
// client's CPU per call (about 10 of its ≈ 45 allocations) between an
// answer and the next request. A [Ctx] is a field of the call's own
// record, and the package's watchers ([AfterEnd]: the library's doers)
// register with it instead of deriving anything; only the caller's
// context is watched, and only while a watcher is registered and the
// caller's context can end at all. Code that does not know the type sees
// an ordinary context: the first Done or Value makes a derived context
// for it, as before.
package callctx
