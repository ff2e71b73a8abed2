package auth

import (
	"github.com/mcpwasm/mcpwasm/internal/jsonscan"
)

// The OAuth documents and responses the Doer reads, decoded without
// reflection (jsondoc_test.go compares every decoder with encoding/json):
// as json.Unmarshal into the struct would, members match their names
// case-insensitively, the last of repeated members wins, null leaves a
// field alone (a raw member keeps it), unknown members are ignored, and a member of the wrong
// kind is an error. One deliberate difference: when a member is repeated
// and a later array holds null, encoding/json keeps the earlier array's
// element in that place (it reuses the slice), these decoders give ""
// (FuzzOAuthDecoders skips such documents; no real document repeats a
// member).

var prNames = []string{"resource", "authorization_servers", "scopes_supported"}

// decodePRM decodes protected resource metadata.
func decodePRM(b []byte, m *prMetadata) error { return m.decode(b) }

func (m *prMetadata) decode(b []byte) error {
	*m = prMetadata{}
	return jsonscan.FieldsInto(b, prNames, []any{&m.Resource, &m.AuthorizationServers, &m.ScopesSupported})
}

var asNames = []string{
	"issuer", "authorization_endpoint", "token_endpoint", "registration_endpoint",
	"scopes_supported", "token_endpoint_auth_methods_supported", "code_challenge_methods_supported",
	"client_id_metadata_document_supported", "authorization_response_iss_parameter_supported",
	"dpop_signing_alg_values_supported",
}

// decodeAS decodes authorization server metadata.
func decodeAS(b []byte, m *asMetadata) error { return m.decode(b) }

func (m *asMetadata) decode(b []byte) error {
	*m = asMetadata{}
	return jsonscan.FieldsInto(b, asNames, []any{
		&m.Issuer, &m.AuthorizationEndpoint, &m.TokenEndpoint, &m.RegistrationEndpoint,
		&m.ScopesSupported, &m.TokenEndpointAuthMethodsSupported, &m.CodeChallengeMethodsSupported,
		&m.ClientIDMetadataDocumentSupported, &m.IssParameterSupported,
		&m.DPoPSigningAlgValuesSupported,
	})
}

// registrationResponse is the part of a client registration response
// (RFC 7591 §3.2.1) the Doer keeps.
type registrationResponse struct {
	ClientID              string
	ClientSecret          string
	ClientSecretExpiresAt int64
	AuthMethod            string
	RedirectURIs          []string
}

var regNames = []string{"client_id", "client_secret", "client_secret_expires_at", "token_endpoint_auth_method", "redirect_uris"}

func decodeRegistration(b []byte, r *registrationResponse) error {
	return jsonscan.FieldsInto(b, regNames, []any{&r.ClientID, &r.ClientSecret, &r.ClientSecretExpiresAt, &r.AuthMethod, &r.RedirectURIs})
}

// tokenResponse is a successful token response (RFC 6749 §5.1); ExpiresIn
// is kept raw (tokenLifetime reads it).
type tokenResponse struct {
	AccessToken  string
	TokenType    string
	ExpiresIn    []byte
	RefreshToken string
	Scope        string
}

var tokenNames = []string{"access_token", "token_type", "expires_in", "refresh_token", "scope"}

func decodeTokenResponse(b []byte, r *tokenResponse) error {
	return jsonscan.FieldsInto(b, tokenNames, []any{&r.AccessToken, &r.TokenType, &r.ExpiresIn, &r.RefreshToken, &r.Scope})
}

// errorResponse is an OAuth error response (RFC 6749 §5.2).
type errorResponse struct {
	Error, Description, URI string
}

var errorNames = []string{"error", "error_description", "error_uri"}

func decodeErrorResponse(b []byte, e *errorResponse) error {
	return jsonscan.FieldsInto(b, errorNames, []any{&e.Error, &e.Description, &e.URI})
}

// exchangeResponse is a token exchange response (RFC 8693 §2.2.1).
type exchangeResponse struct {
	AccessToken, IssuedTokenType string
}

var exchangeNames = []string{"access_token", "issued_token_type"}

func decodeExchangeResponse(b []byte, r *exchangeResponse) error {
	return jsonscan.FieldsInto(b, exchangeNames, []any{&r.AccessToken, &r.IssuedTokenType})
}
