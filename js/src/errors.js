// Errors of the mcpwasm package.

/**
 * McpError is how every failed operation rejects: a JSON-RPC error from the
 * server (code and data as sent), or a client-side failure with one of the
 * codes the TypeScript SDK uses (-32000 connection closed, -32001 request
 * timeout). `kind` says which: "rpc", "timeout", "abort" (the caller's
 * AbortSignal fired; its reason is `cause`), "closed", "http", "cors",
 * "transport", "input", "output-schema", "tool", "protocol",
 * "unsupported-version", "auth" (OAuth: data may hold error, errorDescription,
 * endpoint, redirected, hiddenHeader), "url-elicitation" (code -32042: the
 * call needs the URL elicitations in data.elicitations completed; the message
 * says why it was not retried), "task" (callTool with taskWait:false got a
 * task: data is {taskId, state}), "task-cancelled", "internal".
 */
export class McpError extends Error {
  constructor(code, message, data, options = {}) {
    super(message, options.cause !== undefined ? { cause: options.cause } : undefined);
    this.name = "McpError";
    this.code = code;
    if (data !== undefined) this.data = data;
    this.kind = options.kind ?? "rpc";
    if (options.status !== undefined) this.status = options.status;
  }
}

/** Error codes of JSON-RPC and MCP. */
export const ErrorCode = Object.freeze({
  ConnectionClosed: -32000,
  RequestTimeout: -32001,
  ResourceNotFound: -32002,
  HeaderMismatch: -32020,
  MissingRequiredClientCapability: -32021,
  UnsupportedProtocolVersion: -32022,
  URLElicitationRequired: -32042,
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  /**
   * mcpwasm's own code for a tool result with isError (callToolOrThrow,
   * throwIfToolError): the tool ran and reported a failure, which is not a
   * JSON-RPC error. Servers do not send it.
   */
  ToolError: -32099,
});

/**
 * abortError is how a call whose AbortSignal fired rejects: McpError kind
 * "abort", code -32001, the signal's reason as `cause` (and in the message).
 */
export function abortError(reason) {
  const why = reason instanceof Error ? reason.message : reason === undefined ? "" : String(reason);
  return new McpError(ErrorCode.RequestTimeout, why ? `request aborted: ${why}` : "request aborted", undefined, { kind: "abort", cause: reason });
}

// fromBridge turns the JSON error description the module rejects with into
// an McpError.
export function fromBridge(json) {
  let e;
  try {
    e = JSON.parse(json);
  } catch {
    return new McpError(ErrorCode.InternalError, String(json), undefined, { kind: "internal" });
  }
  return new McpError(e.code, e.message, e.data, { kind: e.kind, status: e.status });
}

/**
 * Throws an McpError (kind "tool", code ErrorCode.ToolError, data.result = the result) when a tool
 * result has isError set; returns the result otherwise.
 */
export function throwIfToolError(result, toolName = "") {
  if (result && result.isError) {
    const text = (result.content || []).find((c) => c && c.type === "text")?.text;
    const name = toolName ? ` "${toolName}"` : "";
    throw new McpError(ErrorCode.ToolError, `tool${name} failed${text ? `: ${text}` : ""}`, { result }, { kind: "tool" });
  }
  return result;
}
