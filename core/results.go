package core

import "bytes"

// requireResult rejects a missing or null result for a request whose
// result carries data (a list, a tool result, a resource, ...): decoding
// null would otherwise give an empty result that looks like a valid one.
// Requests answered with an empty result (ping, logging/setLevel,
// resources/subscribe and /unsubscribe) and methods the client does not
// know are left alone.
func requireResult(method string, result []byte) error {
	switch method {
	case MethodInitialize, MethodDiscover, MethodListTools, MethodCallTool, MethodListResources,
		MethodListResourceTemplates, MethodReadResource, MethodListPrompts, MethodGetPrompt, MethodComplete:
	default:
		return nil
	}
	r := bytes.TrimSpace(result)
	if len(r) == 0 || string(r) == "null" {
		return errStr("%w: %s answered with a null result", ErrInvalidResult, method)
	}
	if r[0] != '{' {
		return errStr("%w: %s answered with a result that is not an object", ErrInvalidResult, method)
	}
	return nil
}
