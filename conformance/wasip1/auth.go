package main

import (
	"encoding/json"
	"fmt"
	"log"
	"strings"

	"github.com/mcpwasm/mcpwasm/auth"
	"github.com/mcpwasm/mcpwasm/wasm/wasihost"
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

// authOptions returns the OAuth settings of a scenario, the same client
// the native runner configures (conformance/client/auth.go) but run inside
// the wasip1 module: a user-facing client whose guest reads the
// authorization server's redirect itself (no Authorize function: the
// headless user agent), with a Client ID Metadata Document URL and a DPoP
// key generated in the guest; a client-credentials or workload client; an
// enterprise-managed one. Nil for the scenarios that are not about
// authorization.
func authOptions(name, contextJSON string) (*wasihost.AuthOptions, error) {
	if !strings.HasPrefix(name, "auth/") {
		return nil, nil
	}
	var sc scenarioContext
	if contextJSON != "" {
		if err := json.Unmarshal([]byte(contextJSON), &sc); err != nil {
			return nil, fmt.Errorf("MCP_CONFORMANCE_CONTEXT: %w", err)
		}
	}
	opts := &wasihost.AuthOptions{
		ClientName:        "mcpwasm-conformance",
		ClientMetadataURL: clientMetadataURL,
		DPoP:              true,
		ClientID:          sc.ClientID,
		OnLog:             func(msg string) { log.Print(msg) },
	}
	if sc.ClientID != "" {
		opts.ClientSecret = sc.ClientSecret
	}
	switch name {
	case "auth/client-credentials-basic":
		opts.Grant = wasihost.GrantClientCredentials
	case "auth/client-credentials-jwt":
		opts.Grant = wasihost.GrantClientCredentials
		// The guest parses the key; check here that it signs with the
		// algorithm the scenario expects, as the native runner does.
		signer, err := auth.ParseSigner([]byte(sc.PrivateKeyPEM))
		if err != nil {
			return nil, err
		}
		if sc.SigningAlgorithm != "" && sc.SigningAlgorithm != signer.Algorithm() {
			return nil, fmt.Errorf("the key signs %s, the scenario expects %s", signer.Algorithm(), sc.SigningAlgorithm)
		}
		opts.PrivateKeyPEM = sc.PrivateKeyPEM
		opts.AuthMethod = auth.AuthMethodJWT
	case "auth/wif-jwt-bearer":
		opts.Grant = wasihost.GrantJWTBearer
		opts.Assertion = sc.ValidJWT
	case "auth/enterprise-managed-authorization":
		opts.Grant = wasihost.GrantJWTBearer
		opts.IDJAG = &wasihost.IDJAGOptions{
			TokenEndpoint: sc.IDPTokenEndpoint,
			ClientID:      sc.IDPClientID,
			SubjectToken:  sc.IDPIDToken,
		}
	}
	return opts, nil
}
