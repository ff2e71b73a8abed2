// mcpwasm: a Model Context Protocol client compiled from Go to WebAssembly.
// This entry point works in browsers, Web Workers, Node, Deno, Bun and
// Workers-style isolates; it imports nothing Node-specific up front.
export { init, moduleStats } from "./loader.js";
export { Client, Task } from "./client.js";
export { McpError, ErrorCode, throwIfToolError } from "./errors.js";
export { popupAuthorization, authorizationCallback, localStorageStore } from "./auth.js";
export { McpManager, parseConfig, namespacedName } from "./manager.js";
export {
  toOpenAIChatTools, toOpenAIResponsesTools, toAnthropicTools,
  toOpenAIChatContent, toOpenAIChatMedia, toOpenAIResponsesOutput, toAnthropicContent,
  runOpenAIChatToolCalls, runOpenAIResponsesCalls, runAnthropicToolUses,
} from "./llm.js";
