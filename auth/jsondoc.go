package auth

import (
	"github.com/mcpwasm/mcpwasm/internal/jsonscan"
)

// The OAuth documents and responses the Doer reads, decoded without
// reflection (jsondoc_test.go compares every decoder with encoding/json):
// as json.Unmarshal into the struct would, members match their names
// case-insensitively, the last of repeated members wins, null leaves a
// field alone (a raw member keeps it), unknown members are ignored, and a member of the wrong
// kind is an error.

var prNames = []string{"resource", "authorization_servers", "scopes_supported"}

// decodePRM decodes protected resource metadata.
func decodePRM(b []byte, m *prMetadata) error {
	return jsonscan.Fields(b, prNames, func(i int, v []byte) (err error) {
		if jsonscan.IsNull(v) {
			return nil // left alone, as encoding/json does
		}
		switch i {
		case 0:
			m.Resource, err = jsonscan.String(v)
		case 1:
			m.AuthorizationServers, err = jsonscan.StringSlice(v)
		case 2:
			m.ScopesSupported, err = jsonscan.StringSlice(v)
		}
		return err
	})
}

var asNames = []string{
	"issuer", "authorization_endpoint", "token_endpoint", "registration_endpoint",
	"scopes_supported", "token_endpoint_auth_methods_supported", "code_challenge_methods_supported",
	"client_id_metadata_document_supported", "authorization_response_iss_parameter_supported",
	"dpop_signing_alg_values_supported",
}

// decodeAS decodes authorization server metadata.
func decodeAS(b []byte, m *asMetadata) error {
	return jsonscan.Fields(b, asNames, func(i int, v []byte) (err error) {
		if jsonscan.IsNull(v) {
			return nil // left alone, as encoding/json does
		}
		switch i {
		case 0:
			m.Issuer, err = jsonscan.String(v)
		case 1:
			m.AuthorizationEndpoint, err = jsonscan.String(v)
		case 2:
			m.TokenEndpoint, err = jsonscan.String(v)
		case 3:
			m.RegistrationEndpoint, err = jsonscan.String(v)
		case 4:
			m.ScopesSupported, err = jsonscan.StringSlice(v)
		case 5:
			m.TokenEndpointAuthMethodsSupported, err = jsonscan.StringSlice(v)
		case 6:
			m.CodeChallengeMethodsSupported, err = jsonscan.StringSlice(v)
		case 7:
			m.ClientIDMetadataDocumentSupported, err = jsonscan.Bool(v)
		case 8:
			m.IssParameterSupported, err = jsonscan.Bool(v)
		case 9:
			m.DPoPSigningAlgValuesSupported, err = jsonscan.StringSlice(v)
		}
		return err
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
	return jsonscan.Fields(b, regNames, func(i int, v []byte) (err error) {
		if jsonscan.IsNull(v) {
			return nil // left alone, as encoding/json does
		}
		switch i {
		case 0:
			r.ClientID, err = jsonscan.String(v)
		case 1:
			r.ClientSecret, err = jsonscan.String(v)
		case 2:
			r.ClientSecretExpiresAt, err = jsonscan.Int64(v)
		case 3:
			r.AuthMethod, err = jsonscan.String(v)
		case 4:
			r.RedirectURIs, err = jsonscan.StringSlice(v)
		}
		return err
	})
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
	return jsonscan.Fields(b, tokenNames, func(i int, v []byte) (err error) {
		if i == 2 {
			r.ExpiresIn = v // raw, null included (as json.RawMessage)
			return nil
		}
		if jsonscan.IsNull(v) {
			return nil // left alone, as encoding/json does
		}
		switch i {
		case 0:
			r.AccessToken, err = jsonscan.String(v)
		case 1:
			r.TokenType, err = jsonscan.String(v)
		case 3:
			r.RefreshToken, err = jsonscan.String(v)
		case 4:
			r.Scope, err = jsonscan.String(v)
		}
		return err
	})
}

// errorResponse is an OAuth error response (RFC 6749 §5.2).
type errorResponse struct {
	Error, Description, URI string
}

var errorNames = []string{"error", "error_description", "error_uri"}

func decodeErrorResponse(b []byte, e *errorResponse) error {
	return jsonscan.Fields(b, errorNames, func(i int, v []byte) (err error) {
		if jsonscan.IsNull(v) {
			return nil // left alone, as encoding/json does
		}
		switch i {
		case 0:
			e.Error, err = jsonscan.String(v)
		case 1:
			e.Description, err = jsonscan.String(v)
		case 2:
			e.URI, err = jsonscan.String(v)
		}
		return err
	})
}

// exchangeResponse is a token exchange response (RFC 8693 §2.2.1).
type exchangeResponse struct {
	AccessToken, IssuedTokenType string
}

var exchangeNames = []string{"access_token", "issued_token_type"}

func decodeExchangeResponse(b []byte, r *exchangeResponse) error {
	return jsonscan.Fields(b, exchangeNames, func(i int, v []byte) (err error) {
		if jsonscan.IsNull(v) {
			return nil // left alone, as encoding/json does
		}
		switch i {
		case 0:
			r.AccessToken, err = jsonscan.String(v)
		case 1:
			r.IssuedTokenType, err = jsonscan.String(v)
		}
		return err
	})
}
