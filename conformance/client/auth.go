package main

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"strings"

	"github.com/mcpwasm/mcpwasm/auth"
	"github.com/mcpwasm/mcpwasm/transport/fetch"
)

// clientMetadataURL is the conformance client's Client ID Metadata Document
// URL (the suite's authorization servers accept it without fetching it).
const clientMetadataURL = "https://conformance-test.local/client-metadata.json"

// scenarioContext is MCP_CONFORMANCE_CONTEXT: the credentials and keys the
// suite hands to the client for the scenarios that need them.
type scenarioContext struct {
	ClientID         string `json:"client_id"`
	ClientSecret     string `json:"client_secret"`
	PrivateKeyPEM    string `json:"private_key_pem"`
	SigningAlgorithm string `json:"signing_algorithm"`
	IDPClientID      string `json:"idp_client_id"`
	IDPIDToken       string `json:"idp_id_token"`
	IDPTokenEndpoint string `json:"idp_token_endpoint"`
	ValidJWT         string `json:"valid_jwt"`
}

// transportOptions returns the transport options of a scenario: for the
// authorization scenarios an OAuth Doer configured as the client the
// scenario describes (a user-facing client with a headless user agent, a
// client-credentials or workload client, an enterprise-managed one); nil
// for the others.
func transportOptions(name, contextJSON string) (*fetch.Options, error) {
	if !strings.HasPrefix(name, "auth/") {
		return nil, nil
	}
	var sc scenarioContext
	if contextJSON != "" {
		if err := json.Unmarshal([]byte(contextJSON), &sc); err != nil {
			return nil, fmt.Errorf("MCP_CONFORMANCE_CONTEXT: %w", err)
		}
	}
	dpopKey, err := auth.GenerateSigner()
	if err != nil {
		return nil, err
	}
	inner := fetch.DefaultDoer()
	opts := &auth.Options{
		UserAgent:         auth.Headless(inner),
		ClientName:        "mcpwasm-conformance",
		ClientMetadataURL: clientMetadataURL,
		DPoP:              dpopKey,
		Logf:              log.Printf,
	}
	if sc.ClientID != "" {
		opts.Client = &auth.Client{ID: sc.ClientID, Secret: sc.ClientSecret}
	}
	switch name {
	case "auth/client-credentials-basic":
		opts.Grant = auth.GrantClientCredentials
	case "auth/client-credentials-jwt":
		opts.Grant = auth.GrantClientCredentials
		signer, err := auth.ParseSigner([]byte(sc.PrivateKeyPEM))
		if err != nil {
			return nil, err
		}
		if sc.SigningAlgorithm != "" && sc.SigningAlgorithm != signer.Algorithm() {
			return nil, fmt.Errorf("the key signs %s, the scenario expects %s", signer.Algorithm(), sc.SigningAlgorithm)
		}
		opts.Client.Signer = signer
		opts.Client.AuthMethod = auth.AuthMethodJWT
	case "auth/wif-jwt-bearer":
		opts.Grant = auth.GrantJWTBearer
		opts.Assertion = func(context.Context, *auth.AssertionRequest) (string, error) { return sc.ValidJWT, nil }
	case "auth/enterprise-managed-authorization":
		opts.Grant = auth.GrantJWTBearer
		opts.Assertion = auth.IDJAG(&auth.IDJAGOptions{
			TokenEndpoint: sc.IDPTokenEndpoint,
			ClientID:      sc.IDPClientID,
			SubjectToken:  func(context.Context) (string, error) { return sc.IDPIDToken, nil },
		})
	}
	return &fetch.Options{HTTP: auth.NewDoer(inner, opts)}, nil
}
