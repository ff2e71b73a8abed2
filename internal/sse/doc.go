// Package sse implements a streaming parser and an encoder for Server-Sent
// Events (the text/event-stream format), as used by the MCP Streamable HTTP
// transport.
//
// The parser follows the WHATWG HTML "interpreting an event stream"
// algorithm (https://html.spec.whatwg.org/multipage/server-sent-events.html):
//
//   - The stream is decoded as UTF-8; one leading byte order mark is
//     stripped at the start of the stream, and invalid byte sequences are
//     replaced with U+FFFD exactly as the WHATWG Encoding standard's
//     "UTF-8 decode" does (one U+FFFD per maximal invalid subpart).
//   - Lines end in CRLF, LF or CR. A CR that ends one read chunk and an LF
//     that starts the next count as a single line end.
//   - A line starting with ':' is a comment (keep-alives such as ": ping").
//   - Other lines are split into field name and value on the first ':'; one
//     leading space of the value is removed. A line without ':' is a field
//     with an empty value.
//   - The fields "event", "data", "id" (ignored if it contains NUL) and
//     "retry" (ignored unless it consists only of ASCII digits) are
//     interpreted; all other fields are ignored.
//   - A blank line dispatches the event, unless no data line was seen since
//     the previous blank line. The last-event-ID persists across events.
//   - An incomplete event at the end of the stream is discarded.
//
// The parser never uses token-size-limited scanners: a single data line may
// be many megabytes long. The memory used for one event is bounded by
// [ReaderOptions.MaxEventSize]; exceeding it makes [Reader.Next] fail with
// an error wrapping [ErrEventTooLarge].
//
// [AppendEvent] encodes events in the same format; it is meant for tests and
// test servers.
//
// The package contains no OS-specific code and runs under GOOS=js and
// GOOS=wasip1 on GOARCH=wasm.
package sse
