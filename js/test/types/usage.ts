// Type-checked (tsc --strict --noEmit) usage of the package's declarations.
import { init, Client, McpError, ErrorCode, throwIfToolError } from "../../index.js";
import type { CallToolResult, ElicitResult, CreateMessageResult, Tool, SessionInfo, LoggingMessage } from "../../index.js";

export async function main(): Promise<void> {
  await init({ wasmURL: new URL("https://example.com/mcpwasm.wasm") });
  const client = new Client({ name: "chat", version: "1.0.0" }, {
    sampling: async (params, { signal }): Promise<CreateMessageResult> => {
      signal?.throwIfAborted();
      const first = params.messages[0];
      return { role: "assistant", model: "m", content: { type: "text", text: `${first?.role ?? "none"}` } };
    },
    elicitation: async (params): Promise<ElicitResult> =>
      params.mode === "url" ? { action: "decline" } : { action: "accept", content: { name: "Ada", age: 3, ok: true, tags: ["a"] } },
    roots: [{ uri: "file:///work", name: "work" }],
    onLog: (m: LoggingMessage) => console.log(m.level, m.data),
    onProgress: (p) => console.log(p.progress, p.total),
    onToolsListChanged: () => {},
    onResourceUpdated: (u) => console.log(u.uri),
    requestTimeout: 30_000,
    protocolVersions: ["2026-07-28", "2025-11-25"],
  });
  const info: SessionInfo = await client.connect("https://host/mcp", { transport: "auto", headers: { Authorization: "Bearer x" }, fetch });
  console.log(info.era, client.serverInfo?.name, client.protocolVersion, client.instructions);
  const { tools, nextCursor } = await client.listTools({ cursor: "abc" });
  const t: Tool | undefined = tools[0];
  console.log(t?.inputSchema.properties, nextCursor);
  for await (const tool of client.tools()) console.log(tool.name);
  const ac = new AbortController();
  const result: CallToolResult = await client.callTool({ name: "add", arguments: { a: 1 } }, {
    signal: ac.signal, timeout: 1000, onprogress: ({ progress, total }) => console.log(progress, total), resetTimeoutOnProgress: true, maxTotalTimeout: 5000,
  });
  throwIfToolError(result);
  for (const c of result.content) {
    if (c.type === "text") console.log(c.text);
    else if (c.type === "image") console.log(c.mimeType, c.data.length);
    else if (c.type === "resource") console.log(c.resource.uri);
    else if (c.type === "resource_link") console.log(c.uri);
  }
  const sub = await client.listen({ toolsListChanged: true, resourceSubscriptions: ["a:b"] }, { onNotification: (m, p) => console.log(m, p) });
  console.log(sub.acknowledged.resourceSubscriptions);
  await sub.close();
  try {
    await client.readResource({ uri: "x" });
  } catch (e) {
    if (e instanceof McpError && e.code === ErrorCode.ResourceNotFound) console.log(e.kind, e.data);
  }
  await client.setRoots([{ uri: "file:///new" }]);
  await client.close();
}
