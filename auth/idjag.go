package auth

import (
	"context"
	"errors"
	"strings"

	"github.com/mcpwasm/mcpwasm/transport/fetch"
)

// Token type URIs of the identity assertion grant (RFC 8693).
const (
	TokenTypeIDToken = "urn:ietf:params:oauth:token-type:id_token"
	TokenTypeIDJAG   = "urn:ietf:params:oauth:token-type:id-jag"
	tokenExchange    = "urn:ietf:params:oauth:grant-type:token-exchange"
)

// IDJAGOptions configure IDJAG.
type IDJAGOptions struct {
	// TokenEndpoint is the identity provider's token endpoint.
	TokenEndpoint string
	// ClientID is the client's identifier at the identity provider.
	ClientID string
	// ClientSecret, if set, authenticates the client at the identity
	// provider (client_secret_post).
	ClientSecret string
	// SubjectToken returns the user's identity assertion: the ID token the
	// client obtained when the user signed in to the identity provider.
	SubjectToken func(ctx context.Context) (string, error)
	// SubjectTokenType is the subject token's type. Default
	// TokenTypeIDToken.
	SubjectTokenType string
	// HTTP performs the exchange. Default: the Doer's inner Doer.
	HTTP fetch.Doer
}

// IDJAG returns an AssertionFunc for enterprise-managed authorization
// (the MCP extension built on the identity assertion authorization grant):
// for each token request it exchanges the user's identity assertion at the
// identity provider (RFC 8693 token exchange) for an identity assertion JWT
// authorization grant (ID-JAG) for the authorization server and resource,
// which the Doer then presents with GrantJWTBearer. The function is safe
// for concurrent use.
func IDJAG(opts *IDJAGOptions) AssertionFunc {
	o := *opts
	return func(ctx context.Context, req *AssertionRequest) (string, error) {
		if o.TokenEndpoint == "" || o.SubjectToken == nil {
			return "", errors.New("auth: IDJAG needs TokenEndpoint and SubjectToken")
		}
		subject, err := o.SubjectToken(ctx)
		if err != nil {
			return "", err
		}
		typ := o.SubjectTokenType
		if typ == "" {
			typ = TokenTypeIDToken
		}
		form := setPairs(nil, "grant_type", tokenExchange, "requested_token_type", TokenTypeIDJAG, "audience", req.Issuer,
			"resource", req.Resource, "subject_token", subject, "subject_token_type", typ, "client_id", o.ClientID)
		if o.ClientSecret != "" {
			setPairs(form, "client_secret", o.ClientSecret)
		}
		if len(req.Scopes) > 0 {
			setPairs(form, "scope", strings.Join(req.Scopes, " "))
		}
		doer := o.HTTP
		if doer == nil {
			doer = req.HTTP
		}
		b, err := (*Doer)(nil).postOAuth(ctx, doer, "token exchange", "token exchange", o.TokenEndpoint, oauthHeader(formType), []byte(form.Encode()), nil, nil)
		if err != nil {
			return "", err
		}
		var r exchangeResponse
		if err := decodeExchangeResponse(b, &r); err != nil || r.AccessToken == "" {
			return "", errNoExchangedToken
		}
		if r.IssuedTokenType != "" && r.IssuedTokenType != TokenTypeIDJAG {
			return "", failf(ErrBadResponse, "%w: token exchange issued %q, not an ID-JAG", r.IssuedTokenType)
		}
		return r.AccessToken, nil
	}
}
