// The mcpwasm React example: connect to an MCP server with useMcp, list its
// tools, call one, and render its MCP App inline with <McpApp>. Plain
// React.createElement (h) so it builds with esbuild and no JSX setup.
import React, { useState } from "react";
import { createRoot } from "react-dom/client";
import { useMcp, McpApp } from "mcpwasm/react";
import { appResourceUri } from "mcpwasm/apps";
import wasmURL from "mcpwasm/mcpwasm.wasm";

const h = React.createElement;

function Tool({ mcp, tool, onMessage }) {
  const [call, setCall] = useState(undefined); // {args, result?, error?}
  const hasApp = appResourceUri(tool) !== undefined;
  async function run() {
    const args = {};
    setCall({ args });
    try {
      setCall({ args, result: await mcp.callTool({ name: tool.name, arguments: args }) });
    } catch (e) {
      setCall({ args, error: String(e.message ?? e) });
    }
  }
  return h("div", { className: "tool", "data-tool": tool.name },
    h("strong", null, tool.title ?? tool.name), hasApp ? " (app)" : "",
    h("p", null, tool.description ?? ""),
    h("button", { onClick: run }, `Call ${tool.name}`),
    call?.error ? h("pre", { className: "error" }, call.error) : null,
    call?.result ? h("pre", { className: "result" }, call.result.content.map((c) => (c.type === "text" ? c.text : `[${c.type}]`)).join("\n")) : null,
    call && hasApp ? h(McpApp, { source: mcp.client, tool, toolInput: call.args, toolResult: call.result, onMessage }) : null);
}

function App() {
  const initial = new URLSearchParams(location.search).get("mcp") ?? "http://127.0.0.1:3001/mcp";
  const [url, setUrl] = useState(initial);
  const [messages, setMessages] = useState([]);
  const mcp = useMcp(url, {
    clientInfo: { name: "mcpwasm-react-example", version: "0.1.0" },
    initOptions: { wasmURL },
    popup: { redirectUri: new URL("./callback.html", location.href).href },
    elicitation: async (params) => (confirm(`${params.message}\n\nDecline?`) ? { action: "decline" } : { action: "cancel" }),
  });
  const onMessage = (m) => setMessages((list) => [...list, m.content.map((c) => c.text ?? `[${c.type}]`).join(" ")]);
  return h("main", null,
    h("h1", null, "mcpwasm + React"),
    h("form", { onSubmit: (e) => { e.preventDefault(); setUrl(new FormData(e.target).get("url")); } },
      h("input", { name: "url", defaultValue: url }), h("button", null, "Connect")),
    h("p", null, "State: ", h("span", { className: "state", "data-state": mcp.state }, mcp.state),
      mcp.info?.serverInfo ? ` — ${mcp.info.serverInfo.name} (${mcp.info.protocolVersion})` : "",
      mcp.state === "failed" ? h("button", { onClick: () => mcp.connect() }, "Retry / sign in") : null),
    mcp.error ? h("pre", { className: "error" }, String(mcp.error.message ?? mcp.error)) : null,
    h("h2", null, `Tools (${mcp.tools.length})`),
    mcp.tools.map((t) => h(Tool, { key: t.name, mcp, tool: t, onMessage })),
    h("h2", null, "Messages from apps"),
    h("ul", { className: "messages" }, messages.map((m, i) => h("li", { key: i }, m))));
}

createRoot(document.getElementById("root")).render(h(React.StrictMode, null, h(App)));
