// A TypeScript program against the installed tarball, type-checked with
// strict settings under moduleResolution "bundler" and "node16".
import { init, Client, McpError, moduleStats, type Era, type CallToolResult } from "mcpwasm";
import { fileStore } from "mcpwasm/node";
import wasm from "mcpwasm/mcpwasm.wasm";

export async function main(url: string): Promise<number> {
  if (typeof wasm === "string") await init({ wasmURL: wasm });
  else await init({ wasmModule: wasm });
  const era: Era = "legacy";
  const client = new Client({ name: "typed", version: "1.0.0" }, {
    era,
    elicitation: async () => ({ action: "decline" }),
  });
  const info = await client.connect(new URL(url), { era: "auto", signal: AbortSignal.timeout(5000) });
  const connected: boolean = client.isConnected;
  const ended: Promise<McpError | undefined> = client.closed;
  const result: CallToolResult = await client.callTool({ name: "add", arguments: { a: 1, b: 2 } });
  const first = result.content[0];
  const text: string = first?.type === "text" ? first.text : "";
  await client.close();
  const err = await ended;
  void [info.protocolVersion, connected, text, err?.code, fileStore("x.json")];
  return moduleStats().clients;
}

// mcpwasm/apps and mcpwasm/react type-check without their optional peers
// (@modelcontextprotocol/ext-apps, react) installed.
import { renderApp, appResourceUri, appCsp, appsCapabilities, SANDBOX_PROXY_HTML, type AppView, type RenderAppOptions } from "mcpwasm/apps";
import { useMcp, McpApp, type UseMcpResult, type McpAppProps } from "mcpwasm/react";

export async function showApp(client: Client, container: Element): Promise<AppView | undefined> {
  const tools = await client.listTools();
  const tool = tools.tools.find((t) => appResourceUri(t) !== undefined);
  if (!tool) return undefined;
  const options: RenderAppOptions = { onMessage: (m) => { void m.content.length; }, onOpenLink: null, maxHeight: 600, sandboxProxy: new URL("https://sandbox.example/proxy.html") };
  const view = await renderApp(client, tool, container, options);
  await view.initialized;
  void [appCsp({ connectDomains: ["https://api.example"] }), appsCapabilities.extensions, SANDBOX_PROXY_HTML.length];
  return view;
}

export function useServer(url: string): [UseMcpResult, McpAppProps] {
  const mcp = useMcp(url, { popup: { redirectUri: "https://app.example/callback" }, elicitation: async () => ({ action: "cancel" }) });
  const props: McpAppProps = { source: mcp.client, tool: mcp.tools[0], onLog: (l) => { void l.level; } };
  void McpApp;
  return [mcp, props];
}
