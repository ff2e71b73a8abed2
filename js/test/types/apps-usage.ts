// Type-checked (tsc --strict --noEmit) usage of mcpwasm/apps: a chat page's
// host for MCP Apps with downloads, sampling and display modes.
import { renderApp, callToolWithApp, appsCapabilities } from "../../apps.js";
import type { AppView, RenderAppOptions } from "../../apps.js";
import { Client } from "../../index.js";
import type { Tool } from "../../index.js";

export async function host(container: Element, tool: Tool): Promise<AppView> {
  const client = new Client({ name: "chat", version: "1.0.0" }, { capabilities: appsCapabilities });
  await client.connect("https://example.com/mcp");
  const options: RenderAppOptions = {
    displayModes: ["inline", "fullscreen"],
    onDisplayMode: (mode) => {
      container.classList.toggle("fullscreen", mode === "fullscreen");
      return mode;
    },
    onDownloadFile: async (contents, { signal }) => {
      signal?.throwIfAborted();
      for (const item of contents) {
        if (item.type === "resource") console.log("save", item.resource.uri);
        else console.log("offer a link to", item.uri);
      }
      return true;
    },
    onSampling: async (params) => ({ role: "assistant", model: "page", content: { type: "text", text: String(params.maxTokens) } }),
  };
  const { view } = await callToolWithApp(client, tool, {}, container, options);
  const v = view ?? (await renderApp(client, tool, container, options));
  if (v.displayMode === "fullscreen") v.setDisplayMode("inline");
  // Arguments as the model streams them, then the final ones.
  await v.sendToolInputPartial({ city: "Par" });
  await v.sendToolInput({ city: "Paris" });
  return v;
}

// The React component's props take the same host callbacks.
import type { McpAppProps } from "../../react.js";

export function props(client: Client, tool: Tool): McpAppProps {
  return {
    source: client,
    tool,
    displayModes: ["inline", "pip"],
    onDisplayMode: (mode) => mode,
    onDownloadFile: () => false,
    onSampling: async () => ({ role: "assistant", model: "page", content: { type: "text", text: "ok" } }),
    samplingTools: true,
    toolInputPartial: { city: "Par" },
  };
}
