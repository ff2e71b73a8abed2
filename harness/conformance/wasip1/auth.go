package main

import (
	"log"

	"github.com/mcpwasm/mcpwasm/auth"
	"github.com/mcpwasm/mcpwasm/harness/conformance/scenario"
	"github.com/mcpwasm/mcpwasm/wasm/abi"
	"github.com/mcpwasm/mcpwasm/wasm/wasihost"
)

// authOptions returns the OAuth settings of a scenario (scenario.PlanAuth),
// the same client the native runner configures but run inside the wasip1
// module: the guest reads the authorization server's redirect itself (no
// Authorize function: the headless user agent) and generates its DPoP key.
// Nil for the scenarios that are not about authorization.
func authOptions(name, contextJSON string) (*wasihost.AuthOptions, error) {
	plan, err := scenario.PlanAuth(name, contextJSON)
	if plan == nil || err != nil {
		return nil, err
	}
	opts := &wasihost.AuthOptions{
		AuthConfig: abi.AuthConfig{ClientName: scenario.ClientName, ClientMetadataURL: scenario.ClientMetadataURL, DPoP: true, ClientID: plan.ClientID, ClientSecret: plan.ClientSecret, Assertion: plan.Assertion},
		OnLog:      func(msg string) { log.Print(msg) },
	}
	switch plan.Grant {
	case scenario.GrantClientCredentials:
		opts.Grant = wasihost.GrantClientCredentials
	case scenario.GrantJWTBearer:
		opts.Grant = wasihost.GrantJWTBearer
	}
	if plan.PrivateKeyPEM != "" {
		// The guest parses the key again; PlanAuth checked its algorithm.
		opts.PrivateKeyPEM = plan.PrivateKeyPEM
		opts.AuthMethod = auth.AuthMethodJWT
	}
	if j := plan.IDJAG; j != nil {
		opts.IDJAG = &abi.IDJAGConfig{TokenEndpoint: j.TokenEndpoint, ClientID: j.ClientID, SubjectToken: j.IDToken}
	}
	return opts, nil
}
