package main

import (
	"context"
	"log"

	"github.com/mcpwasm/mcpwasm/auth"
	"github.com/mcpwasm/mcpwasm/harness/conformance/scenario"
	"github.com/mcpwasm/mcpwasm/transport/fetch"
)

// transportOptions returns the transport options of a scenario: for the
// authorization scenarios an OAuth Doer configured as the client the
// scenario describes (scenario.PlanAuth); nil for the others.
func transportOptions(name, contextJSON string) (*fetch.Options, error) {
	plan, err := scenario.PlanAuth(name, contextJSON)
	if plan == nil || err != nil {
		return nil, err
	}
	dpopKey, err := auth.GenerateSigner()
	if err != nil {
		return nil, err
	}
	inner := fetch.DefaultDoer()
	opts := &auth.Options{
		UserAgent:         auth.Headless(inner),
		ClientName:        scenario.ClientName,
		ClientMetadataURL: scenario.ClientMetadataURL,
		DPoP:              dpopKey,
		Logf:              log.Printf,
	}
	if plan.ClientID != "" {
		opts.Client = &auth.Client{ID: plan.ClientID, Secret: plan.ClientSecret}
	}
	switch plan.Grant {
	case scenario.GrantClientCredentials:
		opts.Grant = auth.GrantClientCredentials
	case scenario.GrantJWTBearer:
		opts.Grant = auth.GrantJWTBearer
	}
	if plan.Signer != nil {
		opts.Client.Signer = plan.Signer
		opts.Client.AuthMethod = auth.AuthMethodJWT
	}
	if plan.Assertion != "" {
		opts.Assertion = func(context.Context, *auth.AssertionRequest) (string, error) { return plan.Assertion, nil }
	}
	if j := plan.IDJAG; j != nil {
		opts.Assertion = auth.IDJAG(&auth.IDJAGOptions{
			TokenEndpoint: j.TokenEndpoint,
			ClientID:      j.ClientID,
			SubjectToken:  func(context.Context) (string, error) { return j.IDToken, nil },
		})
	}
	return &fetch.Options{HTTP: auth.NewDoer(inner, opts)}, nil
}
