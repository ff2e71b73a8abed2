package demoserver

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// MCP Apps (the io.modelcontextprotocol/ui extension): a tool whose _meta
// names a ui:// resource, and that resource, an HTML page a host renders in
// a sandboxed iframe. Offered only with [Options.Apps], so the shared
// test-peer toolset stays as it is.
const (
	// AppToolName is the tool that has an app.
	AppToolName = "greeting_app"
	// AppResourceURI is the app's ui:// resource.
	AppResourceURI = "ui://demo/greeting.html"
	// AppMIMEType is the MIME type of an MCP App's HTML resource.
	AppMIMEType = "text/html;profile=mcp-app"
)

// appHTML is the app: plain HTML and one inline script speaking the MCP
// Apps postMessage protocol (JSON-RPC 2.0 with the host, the window's
// parent): ui/initialize, then ui/notifications/initialized; it shows the
// tool's input and result as the host delivers them
// (ui/notifications/tool-input, ui/notifications/tool-result), reports its
// size (ui/notifications/size-changed), and its button calls the server's
// echo tool through the host (tools/call), showing the reply: the round
// trip app → host → this server → host → app. Two more buttons ask the host
// for fullscreen (ui/request-display-mode; the mode the host reports in
// ui/notifications/host-context-changed is shown) and to save the greeting
// as a file (ui/download-file).
const appHTML = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Greeting app</title>
<style>
body { font: 14px system-ui, sans-serif; margin: 0; padding: 12px; color: #1c2030; background: #fff8e6; }
h1 { font-size: 18px; margin: 0 0 6px; }
button { font: inherit; padding: 4px 10px; border-radius: 6px; border: 1px solid #c9a24a; background: #fff; cursor: pointer; }
.muted { color: #667085; font-size: 12px; }
</style></head>
<body>
<h1 id="greeting">Waiting for the tool result…</h1>
<p class="muted">An MCP App served by the demo server (` + AppResourceURI + `), shown by the host in a sandboxed frame.</p>
<p>Input: <code id="input">(none yet)</code></p>
<button id="echo" type="button">Ask the server through the host</button>
<button id="fullscreen" type="button">Fullscreen</button>
<button id="save" type="button">Save the greeting</button>
<p id="reply" class="muted"></p>
<script>
(() => {
  const pending = new Map();
  let next = 1;
  const send = (msg) => window.parent.postMessage(Object.assign({ jsonrpc: "2.0" }, msg), "*");
  const request = (method, params) => new Promise((resolve, reject) => {
    const id = next++;
    pending.set(id, { resolve, reject });
    send({ id, method, params });
  });
  const size = () => send({ method: "ui/notifications/size-changed", params: { width: document.documentElement.scrollWidth, height: document.documentElement.scrollHeight } });
  const text = (result) => ((result && result.content) || []).filter((c) => c.type === "text").map((c) => c.text).join(" ");
  window.addEventListener("message", (e) => {
    if (e.source !== window.parent) return;
    const m = e.data;
    if (!m || m.jsonrpc !== "2.0") return;
    if (m.id !== undefined && !m.method) {
      const p = pending.get(m.id);
      pending.delete(m.id);
      if (p) m.error ? p.reject(new Error(m.error.message)) : p.resolve(m.result);
      return;
    }
    if (m.method === "ui/notifications/tool-input") {
      document.getElementById("input").textContent = JSON.stringify((m.params && m.params.arguments) || {});
    } else if (m.method === "ui/notifications/tool-result") {
      const sc = m.params && m.params.structuredContent;
      document.getElementById("greeting").textContent = (sc && sc.greeting) || text(m.params);
      document.body.dataset.result = "shown";
      size();
    } else if (m.method === "ui/notifications/host-context-changed") {
      if (m.params && m.params.displayMode) mode(m.params.displayMode);
    } else if (m.id !== undefined) {
      send({ id: m.id, result: {} }); // ping, teardown and the like
    }
  });
  let displayMode = "inline";
  const mode = (m) => {
    displayMode = m;
    document.body.dataset.mode = m;
    document.getElementById("fullscreen").textContent = m === "fullscreen" ? "Back inline" : "Fullscreen";
    size();
  };
  document.getElementById("fullscreen").addEventListener("click", async () => {
    try {
      const r = await request("ui/request-display-mode", { mode: displayMode === "fullscreen" ? "inline" : "fullscreen" });
      mode(r.mode);
    } catch (err) {
      document.getElementById("reply").textContent = "The host refused: " + err.message;
    }
  });
  document.getElementById("save").addEventListener("click", async () => {
    const greeting = document.getElementById("greeting").textContent;
    try {
      const r = await request("ui/download-file", { contents: [{ type: "resource", resource: { uri: "file:///greeting.txt", mimeType: "text/plain", text: greeting + "\n" } }] });
      document.body.dataset.saved = r && r.isError ? "refused" : "saved";
    } catch (err) {
      document.body.dataset.saved = "failed: " + err.message;
    }
    document.getElementById("reply").textContent = "Save: " + document.body.dataset.saved;
    size();
  });
  document.getElementById("echo").addEventListener("click", async () => {
    const out = document.getElementById("reply");
    try {
      const r = await request("tools/call", { name: "echo", arguments: { text: "hello from the app" } });
      out.textContent = "The server answered: " + text(r);
      document.body.dataset.echo = text(r);
    } catch (err) {
      out.textContent = "The host refused: " + err.message;
    }
    size();
  });
  request("ui/initialize", { appInfo: { name: "demo-greeting-app", version: "1.0.0" }, appCapabilities: {}, protocolVersion: "2026-01-26" })
    .then(() => { send({ method: "ui/notifications/initialized", params: {} }); size(); })
    .catch((err) => { document.getElementById("greeting").textContent = "The host did not initialize the app: " + err.message; });
})();
</script>
</body></html>
`

// addApp registers [AppToolName] and its [AppResourceURI] resource.
func (s *Server) addApp() {
	type greetIn struct {
		Name string `json:"name"`
	}
	type greetOut struct {
		Greeting string `json:"greeting"`
	}
	mcp.AddTool(s.mcp, &mcp.Tool{
		Name:        AppToolName,
		Description: "Greets name; hosts that render MCP Apps show the greeting in a small app.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}`),
		Meta:        mcp.Meta{"ui": map[string]any{"resourceUri": AppResourceURI}},
	}, func(_ context.Context, _ *mcp.CallToolRequest, in greetIn) (*mcp.CallToolResult, greetOut, error) {
		name := strings.TrimSpace(in.Name)
		if name == "" {
			name = "stranger"
		}
		g := "Hello, " + name + "!"
		return textResult(g), greetOut{Greeting: g}, nil
	})
	s.mcp.AddResource(&mcp.Resource{URI: AppResourceURI, Name: "greeting-app", Title: "Greeting app", MIMEType: AppMIMEType},
		func(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{
				URI: req.Params.URI, MIMEType: AppMIMEType, Text: appHTML,
				// No network, no extra permissions: the app needs nothing
				// beyond its own inline script and the host.
				Meta: mcp.Meta{"ui": map[string]any{"csp": map[string]any{}, "prefersBorder": true}},
			}}}, nil
		})
}
