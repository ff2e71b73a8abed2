// Type-checked (tsc --strict --noEmit) usage of the manager and the LLM tool formats.
import {
  McpManager, parseConfig, namespacedName, toOpenAIChatTools, toOpenAIResponsesTools, toAnthropicTools,
  runOpenAIChatToolCalls, runOpenAIResponsesCalls, runAnthropicToolUses, toOpenAIChatContent, toAnthropicContent,
} from "../../index.js";
import type { ManagedTool, ServerState, ManagerConfig, CallToolResult, McpPort } from "../../index.js";

export async function manager(): Promise<void> {
  const config: ManagerConfig = parseConfig('{"mcpServers": {"a": {"url": "https://example.com/mcp"}}}');
  const m = new McpManager(config, {
    clientInfo: { name: "chat", version: "1.0.0" },
    sampling: async (params, { server, signal }) => {
      signal?.throwIfAborted();
      return { role: "assistant", model: server, content: { type: "text", text: String(params.maxTokens) } };
    },
    elicitation: (_params, { server }) => ({ action: "accept", content: { server } }),
    roots: ({ server }) => ({ roots: [{ uri: `file:///${server}` }] }),
    onLog: (msg, { server }) => console.log(server, msg.level),
    reconnect: { delay: 100, maxDelay: 1000, attempts: 5 },
    healthCheck: 10_000,
    clientOptions: { requestTimeout: 30_000 },
  });
  m.addEventListener("change", (e) => console.log(e.detail.server, e.detail.kind));
  m.addEventListener("status", (e) => console.log(e.detail.name, e.detail.status, e.detail.error?.code));
  const states: ServerState[] = await m.connect({ signal: AbortSignal.timeout(5000) });
  await m.add("local", { command: "node", args: ["server.js"], env: { A: "1" }, allowTools: ["x"] });
  const tools: ManagedTool[] = m.tools();
  const first = tools[0];
  if (first) console.log(first.server, first.toolName, first.inputSchema.type, namespacedName(first.server, first.toolName));
  const r: CallToolResult = await m.callTool({ name: "a__echo", arguments: { text: "hi" } }, { timeout: 1000 });
  const chat = toOpenAIChatContent(r);
  console.log(typeof chat === "string" ? chat : chat.map((p) => p.text), toAnthropicContent(r)[0]?.type);
  console.log(toOpenAIChatTools(tools)[0]?.function.name, toOpenAIResponsesTools(tools)[0]?.name, toAnthropicTools(tools)[0]?.input_schema);
  const msgs = await runOpenAIChatToolCalls(m, [{ id: "1", type: "function", function: { name: "a__echo", arguments: "{}" } }], { onprogress: (id, p) => console.log(id, p.progress) });
  const outs = await runOpenAIResponsesCalls(m, [{ type: "function_call", call_id: "1", name: "a__echo", arguments: "{}" }]);
  const user = await runAnthropicToolUses(m, [{ type: "tool_use", id: "1", name: "a__echo", input: {} }], { signal: AbortSignal.timeout(1000) });
  console.log(states.length, msgs[0]?.role, outs[0]?.call_id, user.content[0]?.is_error, m.server("a")?.client?.serverInfo);
  await m.readResource({ uri: "test://x", server: "a" });
  await m.getPrompt({ name: "a__greet", arguments: { name: "Ada" } });
  await m.remove("local");
  await m.close();
}

export async function port(): Promise<void> {
  const { Client } = await import("../../index.js");
  const c = new Client({ name: "x", version: "1" });
  const p: McpPort = { start: (onMessage, onEnd) => { onMessage("{}"); onEnd(); }, send: (json) => console.log(json.length), close: () => {} };
  await c.connect("port:test", { transport: "port", port: p });
}
