package scenario

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/mcpwasm/mcpwasm/auth"
	"github.com/mcpwasm/mcpwasm/core"
)

// ClientMetadataURL is the conformance client's Client ID Metadata Document
// URL (the suite's authorization servers accept it without fetching it).
const ClientMetadataURL = "https://conformance-test.local/client-metadata.json"

// ClientName is the client name runners register with.
const ClientName = "mcpwasm-conformance"

// Grants an AuthPlan can ask for.
const (
	GrantAuthorizationCode = "authorization_code"
	GrantClientCredentials = "client_credentials"
	GrantJWTBearer         = "jwt_bearer"
)

// AuthPlan is the client an authorization scenario describes, for a runner
// to configure through its own API: by default a user-facing client with a
// headless user agent, a Client ID Metadata Document URL and DPoP when the
// authorization server offers it; a client-credentials client (secret or
// private_key_jwt); a workload (JWT bearer) client; an enterprise-managed
// one (an ID-JAG from the identity provider).
type AuthPlan struct {
	Grant string
	// ClientID and ClientSecret are pre-registered credentials, if any.
	ClientID, ClientSecret string
	// PrivateKeyPEM is the private_key_jwt key, and Signer the same key
	// parsed (checked to sign with the algorithm the scenario expects).
	PrivateKeyPEM string
	Signer        auth.Signer
	// Assertion is the workload identity JWT.
	Assertion string
	// IDJAG describes the enterprise identity provider exchange.
	IDJAG *IDJAGPlan
}

// IDJAGPlan is the identity provider of the enterprise-managed scenario.
type IDJAGPlan struct {
	TokenEndpoint, ClientID, IDToken string
}

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

// PlanAuth returns the plan of an authorization scenario ("auth/…"), or
// nil for the others. contextJSON is MCP_CONFORMANCE_CONTEXT. A
// private_key_jwt key that does not parse, or does not sign with the
// algorithm the suite names, is an error.
func PlanAuth(name, contextJSON string) (*AuthPlan, error) {
	if !strings.HasPrefix(name, "auth/") {
		return nil, nil
	}
	var sc scenarioContext
	if contextJSON != "" {
		if err := json.Unmarshal([]byte(contextJSON), &sc); err != nil {
			return nil, fmt.Errorf("MCP_CONFORMANCE_CONTEXT: %w", err)
		}
	}
	p := &AuthPlan{Grant: GrantAuthorizationCode, ClientID: sc.ClientID}
	if sc.ClientID != "" {
		p.ClientSecret = sc.ClientSecret
	}
	switch name {
	case "auth/client-credentials-basic":
		p.Grant = GrantClientCredentials
	case "auth/client-credentials-jwt":
		p.Grant = GrantClientCredentials
		if sc.PrivateKeyPEM != "" {
			signer, err := auth.ParseSigner([]byte(sc.PrivateKeyPEM))
			if err != nil {
				return nil, err
			}
			if sc.SigningAlgorithm != "" && sc.SigningAlgorithm != signer.Algorithm() {
				return nil, fmt.Errorf("the key signs %s, the scenario expects %s", signer.Algorithm(), sc.SigningAlgorithm)
			}
			p.PrivateKeyPEM, p.Signer = sc.PrivateKeyPEM, signer
		}
	case "auth/wif-jwt-bearer":
		p.Grant = GrantJWTBearer
		p.Assertion = sc.ValidJWT
	case "auth/enterprise-managed-authorization":
		p.Grant = GrantJWTBearer
		p.IDJAG = &IDJAGPlan{TokenEndpoint: sc.IDPTokenEndpoint, ClientID: sc.IDPClientID, IDToken: sc.IDPIDToken}
	}
	return p, nil
}

// VersionsFor derives the protocol versions a runner accepts from the
// version the suite asks for (MCP_CONFORMANCE_PROTOCOL_VERSION): a modern
// version alone, or a legacy version and the older legacy versions a
// server may answer with. An empty v means every supported version (nil).
func VersionsFor(v string) []string {
	if v == "" {
		return nil
	}
	if core.IsModernVersion(v) {
		return []string{v}
	}
	out := []string{v}
	for _, s := range core.SupportedVersions() {
		if !core.IsModernVersion(s) && s < v {
			out = append(out, s)
		}
	}
	return out
}
