package manager

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/url"
	"slices"
	"strings"
)

// Transports a ServerConfig may name.
const (
	TransportAuto           = "auto"
	TransportStreamableHTTP = "streamable-http"
	TransportSSE            = "sse"
	TransportWebSocket      = "websocket"
	TransportStdio          = "stdio"
)

// typeAliases maps the "type" values of mcpServers files onto transports.
var typeAliases = map[string]string{
	"stdio": TransportStdio, "http": TransportStreamableHTTP, "streamable-http": TransportStreamableHTTP,
	"streamableHttp": TransportStreamableHTTP, "sse": TransportSSE, "ws": TransportWebSocket, "websocket": TransportWebSocket,
}

// ServerConfig is one entry of the de-facto "mcpServers" configuration
// (Claude Desktop, fastmcp, mcp-use): a URL for HTTP(S) and WebSocket
// servers, or a command for a stdio server.
type ServerConfig struct {
	// URL of an HTTP(S) or WebSocket server.
	URL string `json:"url,omitempty"`
	// Headers sent with every HTTP request (for example Authorization).
	Headers map[string]string `json:"headers,omitempty"`
	// Transport is "auto" (the default for a URL: Streamable HTTP, falling
	// back to HTTP+SSE), "streamable-http", "sse", "websocket", or "stdio"
	// (the default, and the only choice, for a Command).
	Transport string `json:"transport,omitempty"`
	// Type is the "type" some files carry instead ("stdio", "http", "sse",
	// "websocket"); Validate turns it into Transport.
	Type string `json:"type,omitempty"`
	// Command, Args, Env and Cwd start a stdio server. Env is added to this
	// process's environment.
	Command string            `json:"command,omitempty"`
	Args    []string          `json:"args,omitempty"`
	Env     map[string]string `json:"env,omitempty"`
	Cwd     string            `json:"cwd,omitempty"`
	// AllowTools keeps only these of the server's own tool names;
	// DenyTools drops these.
	AllowTools []string `json:"allowTools,omitempty"`
	DenyTools  []string `json:"denyTools,omitempty"`
	// Disabled servers are configured but not connected.
	Disabled bool `json:"disabled,omitempty"`
	// Era is "auto" (the default), "modern" (2026-07-28) or "legacy".
	Era string `json:"era,omitempty"`
}

// Config is the "mcpServers" configuration.
type Config struct {
	MCPServers map[string]*ServerConfig `json:"mcpServers"`
}

// ParseConfig reads the mcpServers JSON. Other top-level members (a
// desktop app's own settings) are ignored; an entry with an unknown member
// or an invalid combination is an error wrapping ErrConfig.
func ParseConfig(data []byte) (*Config, error) {
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrConfig, err)
	}
	raw, ok := top["mcpServers"]
	if !ok {
		return nil, fmt.Errorf(`%w: no "mcpServers" object`, ErrConfig)
	}
	var entries map[string]json.RawMessage
	if err := json.Unmarshal(raw, &entries); err != nil || entries == nil {
		return nil, fmt.Errorf(`%w: "mcpServers" must be an object of servers`, ErrConfig)
	}
	cfg := &Config{MCPServers: make(map[string]*ServerConfig, len(entries))}
	for name, b := range entries {
		dec := json.NewDecoder(bytes.NewReader(b))
		dec.DisallowUnknownFields()
		var sc ServerConfig
		if err := dec.Decode(&sc); err != nil {
			return nil, fmt.Errorf("%w: server %q: %w", ErrConfig, name, err)
		}
		if err := sc.Validate(name); err != nil {
			return nil, err
		}
		cfg.MCPServers[name] = &sc
	}
	return cfg, nil
}

// Validate checks the entry and resolves Type and Transport (Transport is
// "stdio" for a Command, "auto" for a URL without one). name is used in
// the error only.
func (c *ServerConfig) Validate(name string) error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: server %q: %s", ErrConfig, name, fmt.Sprintf(format, args...))
	}
	if name == "" {
		return fmt.Errorf("%w: a server name must not be empty", ErrConfig)
	}
	if c.Type != "" {
		t, ok := typeAliases[c.Type]
		if !ok {
			return bad("unknown type %q", c.Type)
		}
		if c.Transport == "" {
			c.Transport = t
		}
		c.Type = ""
	}
	switch c.Era {
	case "", "auto", "modern", "legacy":
	default:
		return bad(`unknown era %q (known: "auto", "modern", "legacy")`, c.Era)
	}
	if c.Command != "" {
		if c.URL != "" {
			return bad("give url or command, not both")
		}
		if c.Transport != "" && c.Transport != TransportStdio {
			return bad(`command needs transport "stdio"`)
		}
		c.Transport = TransportStdio
		for k := range c.Env {
			if k == "" || strings.Contains(k, "=") {
				return bad("invalid environment variable name %q", k)
			}
		}
		return nil
	}
	if c.Transport == TransportStdio {
		return bad(`transport "stdio" needs a command`)
	}
	if c.URL == "" {
		return bad("give a url (or a command for a stdio server)")
	}
	if _, err := url.Parse(c.URL); err != nil {
		return bad("invalid url: %v", err)
	}
	if c.Transport == "" {
		c.Transport = TransportAuto
	}
	if !slices.Contains([]string{TransportAuto, TransportStreamableHTTP, TransportSSE, TransportWebSocket}, c.Transport) {
		return bad("unknown transport %q", c.Transport)
	}
	return nil
}

// clone returns a deep copy.
func (c *ServerConfig) clone() *ServerConfig {
	d := *c
	d.Args = slices.Clone(c.Args)
	d.AllowTools = slices.Clone(c.AllowTools)
	d.DenyTools = slices.Clone(c.DenyTools)
	if c.Headers != nil {
		d.Headers = make(map[string]string, len(c.Headers))
		for k, v := range c.Headers {
			d.Headers[k] = v
		}
	}
	if c.Env != nil {
		d.Env = make(map[string]string, len(c.Env))
		for k, v := range c.Env {
			d.Env[k] = v
		}
	}
	return &d
}
