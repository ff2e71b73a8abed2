// Package inbox holds what the transports' connections share on the
// receiving side: messages queued by reader goroutines and taken by the
// session's Recv, with what is left drained once the connection ended.
package inbox
