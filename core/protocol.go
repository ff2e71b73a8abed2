package core

// Protocol revisions this client speaks.
const (
	Version20260728 = "2026-07-28"
	Version20251125 = "2025-11-25"
	Version20250618 = "2025-06-18"
	Version20250326 = "2025-03-26"
	Version20241105 = "2024-11-05"
)

// LatestVersion is the newest revision this client speaks.
const LatestVersion = Version20260728

// SupportedVersions returns every revision this client speaks, newest
// first: the default for [ClientOptions.ProtocolVersions]. Each call
// returns a new slice, which the caller may modify.
func SupportedVersions() []string {
	return []string{Version20260728, Version20251125, Version20250618, Version20250326, Version20241105}
}

// Era is the protocol generation a server speaks.
type Era int

const (
	// EraUnknown means the era has not been determined.
	EraUnknown Era = iota
	// EraLegacy is the initialize/session based protocol (2025-11-25 and
	// earlier).
	EraLegacy
	// EraModern is the stateless per-request-_meta protocol (2026-07-28 and
	// later).
	EraModern
)

func (e Era) String() string {
	switch e {
	case EraLegacy:
		return "legacy"
	case EraModern:
		return "modern"
	}
	return "unknown"
}

// legacyVersions are the handshake-based revisions. Anything not listed here
// that sorts after them is modern.
var legacyVersions = []string{Version20251125, Version20250618, Version20250326, Version20241105}

// IsModernVersion reports whether v is a modern (per-request metadata)
// protocol version. Unknown versions newer than 2025-11-25 count as modern.
func IsModernVersion(v string) bool {
	if v == "" || hasString(legacyVersions, v) {
		return false
	}
	return v > Version20251125
}

// EraOf returns the era of protocol version v.
func EraOf(v string) Era {
	switch {
	case v == "":
		return EraUnknown
	case IsModernVersion(v):
		return EraModern
	default:
		return EraLegacy
	}
}

// Keys of the per-request and per-result _meta objects (2026-07-28).
const (
	MetaProtocolVersion    = "io.modelcontextprotocol/protocolVersion"
	MetaClientCapabilities = "io.modelcontextprotocol/clientCapabilities"
	MetaClientInfo         = "io.modelcontextprotocol/clientInfo"
	MetaLogLevel           = "io.modelcontextprotocol/logLevel"
	MetaServerInfo         = "io.modelcontextprotocol/serverInfo"
	MetaSubscriptionID     = "io.modelcontextprotocol/subscriptionId"
	MetaProgressToken      = "progressToken"
)

// Method names.
const (
	MethodInitialize             = "initialize"
	MethodDiscover               = "server/discover"
	MethodPing                   = "ping"
	MethodListTools              = "tools/list"
	MethodCallTool               = "tools/call"
	MethodListResources          = "resources/list"
	MethodListResourceTemplates  = "resources/templates/list"
	MethodReadResource           = "resources/read"
	MethodSubscribe              = "resources/subscribe"
	MethodUnsubscribe            = "resources/unsubscribe"
	MethodListen                 = "subscriptions/listen"
	MethodListPrompts            = "prompts/list"
	MethodGetPrompt              = "prompts/get"
	MethodComplete               = "completion/complete"
	MethodSetLevel               = "logging/setLevel"
	MethodCreateMessage          = "sampling/createMessage"
	MethodElicit                 = "elicitation/create"
	MethodListRoots              = "roots/list"
	NotificationInitialized      = "notifications/initialized"
	NotificationCancelled        = "notifications/cancelled"
	NotificationProgress         = "notifications/progress"
	NotificationMessage          = "notifications/message"
	NotificationRootsChanged     = "notifications/roots/list_changed"
	NotificationToolsChanged     = "notifications/tools/list_changed"
	NotificationPromptsChanged   = "notifications/prompts/list_changed"
	NotificationResourcesChanged = "notifications/resources/list_changed"
	NotificationResourceUpdated  = "notifications/resources/updated"
	NotificationAcknowledged     = "notifications/subscriptions/acknowledged"
	NotificationElicitComplete   = "notifications/elicitation/complete"
)

// Result types (2026-07-28). A result without resultType is complete.
const (
	ResultTypeComplete      = "complete"
	ResultTypeInputRequired = "input_required"
)

// isCacheable reports whether method's results carry ttlMs/cacheScope
// (2026-07-28).
func isCacheable(method string) bool {
	switch method {
	case MethodDiscover, MethodListTools, MethodListPrompts, MethodListResources, MethodListResourceTemplates, MethodReadResource:
		return true
	}
	return false
}

// supportsInputRequired reports whether a modern server may answer method
// with an input_required result.
func supportsInputRequired(method string) bool {
	switch method {
	case MethodCallTool, MethodGetPrompt, MethodReadResource:
		return true
	}
	return false
}
