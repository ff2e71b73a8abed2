// Type-checked (tsc --strict --noEmit) usage of the package's declarations.
import { init, Client, McpError, ErrorCode, throwIfToolError } from "../../index.js";
import type { CallToolResult, ElicitResult, CreateMessageResult, Tool, SessionInfo, LoggingMessage, Era } from "../../index.js";

export async function main(): Promise<void> {
  await init({ wasmURL: new URL("https://example.com/mcpwasm.wasm") });
  const client = new Client({ name: "chat", version: "1.0.0" }, {
    sampling: async (params, { signal }): Promise<CreateMessageResult> => {
      signal?.throwIfAborted();
      const first = params.messages[0];
      return { role: "assistant", model: "m", content: { type: "text", text: `${first?.role ?? "none"}` } };
    },
    elicitation: async (params): Promise<ElicitResult> =>
      params.mode === "url" ? { action: "accept", completed: true } : { action: "accept", content: { name: "Ada", age: 3, ok: true, tags: ["a"] } },
    roots: [{ uri: "file:///work", name: "work" }],
    onLog: (m: LoggingMessage) => console.log(m.level, m.data),
    onProgress: (p) => console.log(p.progress, p.total),
    onToolsListChanged: () => {},
    onResourceUpdated: (u) => console.log(u.uri),
    requestTimeout: 30_000,
    protocolVersions: ["2026-07-28", "2025-11-25"],
    retry: { attempts: 4, delay: 200, maxDelay: 5000 },
    keepAlive: 30_000,
    maxQueuedNotifications: 1000,
    maxServerRequests: 8,
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
    if (e instanceof McpError && e.kind === "url-elicitation" && e.code === ErrorCode.URLElicitationRequired) console.log(e.data);
    if (e instanceof McpError && e.kind === "abort") console.log(e.cause);
    if (e instanceof McpError && e.code === ErrorCode.ToolError) console.log(e.message);
  }
  await client.setRoots([{ uri: "file:///new" }]);
  await client.close();
}

// Authorization: a page (popup, redirect fallback, callback page, storage).
import { popupAuthorization, authorizationCallback, localStorageStore } from "../../index.js";
import type { AuthOptions, AuthStorage, AuthErrorData, AuthorizationInfo } from "../../index.js";
import { loopbackAuthorization, fileStore, Client as NodeClient } from "../../node.js";

export async function page(): Promise<void> {
  const storage: AuthStorage = localStorageStore("app:", sessionStorage);
  const auth: AuthOptions = {
    onAuthorizationUrl: popupAuthorization({ redirectUri: `${location.origin}/callback.html`, width: 480, timeoutMs: 120_000 }),
    storage,
    scopes: ["files:read"],
    clientMetadataUrl: "https://app.example/client-metadata.json",
    dpop: true,
    onLog: (line) => console.debug(line),
  };
  const client = new Client({ name: "chat", version: "1.0.0" });
  try {
    await client.connect("https://host/mcp", { auth });
  } catch (e) {
    if (e instanceof McpError && e.kind === "auth") {
      const data = e.data as AuthErrorData | undefined;
      if (data?.redirected) return; // the page is going to the authorization server
      console.log(data?.error, data?.errorDescription, data?.hiddenHeader, e.status);
    }
  }
  // At the redirect URI (callback.html): a popup hands the response over; a redirected page finishes.
  const callbackUrl = await authorizationCallback({ ackTimeoutMs: 500 });
  if (callbackUrl !== null) await client.connect("https://host/mcp", { auth: { ...auth, callbackUrl } });

  // Custom user agent and storage; machine grants.
  const custom = async (url: string, info: AuthorizationInfo): Promise<string | null> => {
    info.signal?.throwIfAborted();
    return info.resumable ? null : `${info.redirectUri}?code=x&state=${info.state}&from=${url}`;
  };
  const map = new Map<string, string>();
  await client.connect("https://host/mcp", {
    auth: {
      onAuthorizationUrl: custom,
      redirectUri: "https://app.example/cb",
      storage: { load: (k) => map.get(k) ?? null, save: async (k, v) => { map.set(k, v); }, remove: (k) => { map.delete(k); } },
    },
  });
  await client.connect("https://host/mcp", { auth: { grant: "client_credentials", client: { id: "svc", secret: "s", authMethod: "client_secret_basic" } } });
  await client.connect("https://host/mcp", { auth: { grant: "jwt_bearer", assertion: async (r) => `${r.issuer} ${r.resource} ${r.scopes.join(" ")}` } });
  await client.connect("https://host/mcp", { auth: { idJag: { tokenEndpoint: "https://idp/token", clientId: "c", subjectToken: () => "id-token" } } });
}

// Authorization: Node (loopback callback, file storage).
export async function node(): Promise<void> {
  const agent = await loopbackAuthorization({ open: (url) => console.log(`Open ${url}`), path: "/cb" });
  console.log(agent.redirectUri);
  const client = new NodeClient({ name: "cli", version: "1.0.0" });
  await client.connect("https://host/mcp", { auth: { onAuthorizationUrl: agent, storage: fileStore("/tmp/tokens.json") } });
  await client.connect("https://host/mcp", { auth: { userAgent: "headless" } });
  await agent.close();
}

// Connection state and era by name.
async function connectionState(): Promise<void> {
  const c = new Client({ name: "state", version: "1.0.0" }, { era: "legacy" });
  const ended: McpError | undefined = await Promise.race([c.closed, Promise.resolve(undefined)]);
  const connected: boolean = c.isConnected;
  await c.connect("https://example.com/mcp", { era: "modern" });
  const era: Era = "auto";
  void [ended, connected, era];
  // @ts-expect-error: not an era
  new Client({ name: "x", version: "1" }, { era: "future" });
}
void connectionState;

// Tasks: call as a task, wait with status, resume by id, list, cancel.
import type { Task, TaskState, TaskStatus, ListTasksResult } from "../../index.js";
async function tasks(): Promise<void> {
  const c = new Client({ name: "tasks", version: "1.0.0" }, { tasks: true });
  const task: Task = await c.callToolAsTask({ name: "report", arguments: { q: 1 } }, { ttl: 60000, timeout: 5000 });
  const status: TaskStatus = task.status;
  const poll: number = task.pollInterval;
  const ac = new AbortController();
  const result: CallToolResult = await task.wait({ signal: ac.signal, onStatus: (s: TaskState) => console.log(s.status, s.statusMessage), maxPollInterval: 5000 });
  const again: Task = await c.getTask(task.id);
  const st: TaskState = await again.cancel();
  const page: ListTasksResult = await c.listTasks({ cursor: "x" });
  await c.callTool({ name: "report" }, { taskWait: false }).catch((e: McpError) => e.kind === "task");
  void [status, poll, result, st, page];
}
void tasks;
