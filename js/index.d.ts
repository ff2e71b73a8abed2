// TypeScript declarations of the mcpwasm package: plain interfaces written
// from the MCP schemas (2026-07-28 and the legacy revisions), no runtime
// validation library.

// ---------------------------------------------------------------- loading

/**
 * The module's source; give at most one. Without any, init() uses the
 * module next to the package: the "node" and "bun" entry points read it
 * from disk, the "workerd" entry point uses the .wasm it imports as a
 * precompiled module, and the browser entry point fetches
 * new URL("../dist/mcpwasm.wasm", import.meta.url), which Vite, webpack,
 * Rollup and Parcel emit by themselves (with esbuild, import
 * "mcpwasm/mcpwasm.wasm" with its file loader and pass wasmURL).
 */
export interface InitOptions {
  /** Where to fetch mcpwasm.wasm (default: dist/mcpwasm.wasm next to the package). */
  wasmURL?: string | URL;
  /** A precompiled module (Workers-style runtimes that forbid compiling at run time). */
  wasmModule?: WebAssembly.Module;
  /** The module's bytes. */
  bytes?: ArrayBuffer | ArrayBufferView;
  /** A Response (or a Promise of one), compiled with streaming compilation when possible. */
  response?: Response | PromiseLike<Response>;
}

/**
 * Loads the WebAssembly module once; later calls return at once; retryable
 * after failure. A failure says what to do (a runtime without module URLs,
 * one that forbids run-time compilation, a bundler that did not emit the
 * .wasm). In Cloudflare Workers an init() at module scope instantiates the
 * module and starts it at the first Client, inside a request.
 */
export function init(options?: InitOptions): Promise<void>;

/** The WebAssembly instance's bookkeeping (for leak checks and benchmarks). */
export interface ModuleStats {
  clients: number;
  subscriptions: number;
  calls: number;
  goroutines: number;
  /** Go heap bytes in use after a collection. */
  goHeap: number;
  /** Go heap objects allocated since the instance started. */
  mallocs: number;
  /** Go heap bytes allocated since the instance started. */
  allocBytes: number;
  /** Go garbage collections since the instance started. */
  gcCycles: number;
}

/** Reports the instance's clients, subscriptions, calls in flight, goroutines, Go heap bytes, allocations and collections (it runs a collection first: for leak checks and benchmarks). */
export function moduleStats(): ModuleStats;

// ---------------------------------------------------------------- errors

export type McpErrorKind =
  | "rpc" | "timeout" | "closed" | "http" | "cors" | "transport" | "input"
  | "output-schema" | "tool" | "protocol" | "unsupported-version" | "abort" | "auth"
  | "url-elicitation" | "task" | "task-cancelled" | "invalid" | "internal";

/** Every failed operation rejects with an McpError; kind "abort" (code -32001) when the caller's AbortSignal fired, with the signal's reason as `cause`. */
export class McpError extends Error {
  constructor(code: number, message: string, data?: unknown, options?: { kind?: McpErrorKind; status?: number; cause?: unknown });
  readonly name: "McpError";
  /** The JSON-RPC error code (server errors as sent; -32000 connection closed, -32001 timeout). */
  code: number;
  data?: unknown;
  kind: McpErrorKind;
  /** The HTTP status, for kind "http" (and "auth" when an OAuth endpoint answered an error). */
  status?: number;
}

/** The data of an McpError of kind "auth". */
export interface AuthErrorData {
  /** The OAuth error code of an authorization server's error response (e.g. "access_denied", "invalid_grant"). */
  error?: string;
  errorDescription?: string;
  /** Which endpoint answered the error: "token", "registration", "authorization" or "token exchange". */
  endpoint?: string;
  /** The page went to the authorization server (popup blocked, full-page redirect): it finishes at the redirect URI. */
  redirected?: true;
  /** The 401's WWW-Authenticate was hidden by CORS (the server must list it in Access-Control-Expose-Headers). */
  hiddenHeader?: "WWW-Authenticate";
}

export declare const ErrorCode: {
  readonly ConnectionClosed: -32000;
  readonly RequestTimeout: -32001;
  readonly ResourceNotFound: -32002;
  readonly HeaderMismatch: -32020;
  readonly MissingRequiredClientCapability: -32021;
  readonly UnsupportedProtocolVersion: -32022;
  readonly URLElicitationRequired: -32042;
  readonly ParseError: -32700;
  readonly InvalidRequest: -32600;
  readonly MethodNotFound: -32601;
  readonly InvalidParams: -32602;
  readonly InternalError: -32603;
  /** mcpwasm's code for a tool result with isError (kind "tool"); servers do not send it. */
  readonly ToolError: -32099;
};

/** Throws an McpError (kind "tool", code ErrorCode.ToolError) when result.isError is set; returns the result otherwise. */
export function throwIfToolError<T extends CallToolResult>(result: T, toolName?: string): T;

// ---------------------------------------------------------------- MCP types

export type Meta = { [key: string]: unknown };
export type Role = "user" | "assistant";
export type LoggingLevel = "debug" | "info" | "notice" | "warning" | "error" | "critical" | "alert" | "emergency";
export type ProgressToken = string | number;
export type Cursor = string;

export interface Icon {
  src: string;
  mimeType?: string;
  sizes?: string[];
  theme?: "light" | "dark";
}

export interface Implementation {
  name: string;
  version: string;
  title?: string;
  description?: string;
  websiteUrl?: string;
  icons?: Icon[];
}

export interface ClientCapabilities {
  experimental?: { [key: string]: object };
  extensions?: { [key: string]: object };
  roots?: { listChanged?: boolean };
  sampling?: { context?: object; tools?: object };
  elicitation?: { form?: { applyDefaults?: boolean }; url?: object };
  [key: string]: unknown;
}

export interface ServerCapabilities {
  experimental?: { [key: string]: object };
  extensions?: { [key: string]: object };
  logging?: object;
  completions?: object;
  prompts?: { listChanged?: boolean };
  resources?: { subscribe?: boolean; listChanged?: boolean };
  tools?: { listChanged?: boolean };
  [key: string]: unknown;
}

export interface Annotations {
  audience?: Role[];
  priority?: number;
  lastModified?: string;
}

export interface TextContent { type: "text"; text: string; annotations?: Annotations; _meta?: Meta }
export interface ImageContent { type: "image"; data: string; mimeType: string; annotations?: Annotations; _meta?: Meta }
export interface AudioContent { type: "audio"; data: string; mimeType: string; annotations?: Annotations; _meta?: Meta }
export interface TextResourceContents { uri: string; mimeType?: string; text: string; _meta?: Meta }
export interface BlobResourceContents { uri: string; mimeType?: string; blob: string; _meta?: Meta }
export type ResourceContents = TextResourceContents | BlobResourceContents;
export interface EmbeddedResource { type: "resource"; resource: ResourceContents; annotations?: Annotations; _meta?: Meta }
export interface ResourceLink {
  type: "resource_link";
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  size?: number;
  icons?: Icon[];
  annotations?: Annotations;
  _meta?: Meta;
}
export interface ToolUseContent { type: "tool_use"; id: string; name: string; input: { [key: string]: unknown }; _meta?: Meta }
export interface ToolResultContent {
  type: "tool_result";
  toolUseId: string;
  content: ContentBlock[];
  structuredContent?: unknown;
  isError?: boolean;
  _meta?: Meta;
}
export type ContentBlock = TextContent | ImageContent | AudioContent | ResourceLink | EmbeddedResource;
export type SamplingContent = TextContent | ImageContent | AudioContent | ToolUseContent | ToolResultContent;

/** A JSON Schema object (kept as the server sent it). */
export interface JSONSchema {
  type?: string | string[];
  properties?: { [key: string]: JSONSchema };
  required?: string[];
  [key: string]: unknown;
}

export interface ToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

export interface Tool {
  name: string;
  title?: string;
  description?: string;
  inputSchema: JSONSchema;
  outputSchema?: JSONSchema;
  annotations?: ToolAnnotations;
  icons?: Icon[];
  _meta?: Meta;
}

export interface Resource {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  size?: number;
  annotations?: Annotations;
  icons?: Icon[];
  _meta?: Meta;
}

export interface ResourceTemplate {
  uriTemplate: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  annotations?: Annotations;
  icons?: Icon[];
  _meta?: Meta;
}

export interface PromptArgument { name: string; title?: string; description?: string; required?: boolean }
export interface Prompt { name: string; title?: string; description?: string; arguments?: PromptArgument[]; icons?: Icon[]; _meta?: Meta }
export interface PromptMessage { role: Role; content: ContentBlock }

/** Members every result may carry. */
export interface Result {
  _meta?: Meta;
  /** 2026-07-28: "complete" (absent means complete). */
  resultType?: string;
  [key: string]: unknown;
}

/** Caching hints of cacheable results (2026-07-28). */
export interface CacheHints {
  ttlMs?: number;
  cacheScope?: "public" | "private";
}

export interface PaginatedParams { cursor?: Cursor; _meta?: Meta }
export interface ListToolsResult extends Result, CacheHints { tools: Tool[]; nextCursor?: Cursor }
export interface ListResourcesResult extends Result, CacheHints { resources: Resource[]; nextCursor?: Cursor }
export interface ListResourceTemplatesResult extends Result, CacheHints { resourceTemplates: ResourceTemplate[]; nextCursor?: Cursor }
export interface ListPromptsResult extends Result, CacheHints { prompts: Prompt[]; nextCursor?: Cursor }

export interface CallToolParams { name: string; arguments?: { [key: string]: unknown }; _meta?: Meta }
export interface CallToolResult extends Result {
  content: ContentBlock[];
  structuredContent?: unknown;
  isError?: boolean;
}
export interface ReadResourceParams { uri: string; _meta?: Meta }
export interface ReadResourceResult extends Result, CacheHints { contents: ResourceContents[] }
export interface GetPromptParams { name: string; arguments?: { [key: string]: string }; _meta?: Meta }
export interface GetPromptResult extends Result { description?: string; messages: PromptMessage[] }

export interface CompleteParams {
  ref: { type: "ref/prompt"; name: string } | { type: "ref/resource"; uri: string };
  argument: { name: string; value: string };
  context?: { arguments?: { [key: string]: string } };
  _meta?: Meta;
}
export interface CompleteResult extends Result { completion: { values: string[]; total?: number; hasMore?: boolean } }

export interface Root { uri: string; name?: string; _meta?: Meta }
export interface ListRootsResult { roots: Root[]; _meta?: Meta }

export interface ModelPreferences {
  hints?: { name?: string }[];
  costPriority?: number;
  speedPriority?: number;
  intelligencePriority?: number;
}
export interface SamplingMessage { role: Role; content: SamplingContent | SamplingContent[]; _meta?: Meta }
export interface CreateMessageParams {
  messages: SamplingMessage[];
  modelPreferences?: ModelPreferences;
  systemPrompt?: string;
  includeContext?: "none" | "thisServer" | "allServers";
  temperature?: number;
  maxTokens: number;
  stopSequences?: string[];
  metadata?: object;
  tools?: Tool[];
  toolChoice?: { mode?: "auto" | "required" | "none" };
  _meta?: Meta;
}
export interface CreateMessageResult {
  role: Role;
  content: SamplingContent | SamplingContent[];
  model: string;
  stopReason?: "endTurn" | "stopSequence" | "maxTokens" | "toolUse" | string;
  _meta?: Meta;
}

export interface ElicitFormParams {
  mode?: "form";
  message: string;
  requestedSchema: { type: "object"; properties: { [key: string]: JSONSchema }; required?: string[] };
  _meta?: Meta;
}
export interface ElicitURLParams {
  mode: "url";
  message: string;
  url: string;
  /** Legacy (2025-11-25) URL elicitations carry an id. */
  elicitationId?: string;
  _meta?: Meta;
}
export type ElicitParams = ElicitFormParams | ElicitURLParams;
export interface ElicitResult {
  action: "accept" | "decline" | "cancel";
  content?: { [key: string]: string | number | boolean | string[] };
  /**
   * Not sent to the server. For a URL elicitation a call depends on (a legacy
   * -32042 error), `true` says the user has already finished the flow at the
   * URL: the call is retried at once instead of waiting (at most the call's
   * timeout) for notifications/elicitation/complete, which servers need not
   * send. Without it and without that notification the call rejects with kind
   * "url-elicitation", code -32042 and the server's data (data.elicitations).
   */
  completed?: boolean;
  _meta?: Meta;
}

export interface LoggingMessage { level: LoggingLevel; logger?: string; data: unknown; _meta?: Meta }
export interface ProgressNotification { progressToken: ProgressToken; progress: number; total?: number; message?: string; _meta?: Meta }
export interface Progress { progress: number; total?: number; message?: string }
export interface ResourceUpdated { uri: string; _meta?: Meta }
export interface ElicitationComplete { elicitationId: string; _meta?: Meta }

export interface SubscriptionFilter {
  toolsListChanged?: boolean;
  promptsListChanged?: boolean;
  resourcesListChanged?: boolean;
  resourceSubscriptions?: string[];
  /** notifications/tasks of these tasks (the 2026-07-28 tasks extension). */
  taskIds?: string[];
}

// ---------------------------------------------------------------- client

/** Extra arguments of server-request handlers. */
export interface HandlerExtra {
  /** Aborts when the server cancels its request or the session ends. */
  signal?: AbortSignal;
}

export interface ClientOptions {
  /** Answers sampling/createMessage (legacy requests and modern input requests alike). */
  sampling?: (params: CreateMessageParams, extra: HandlerExtra) => CreateMessageResult | Promise<CreateMessageResult>;
  /** Declares sampling.tools: the handler accepts tools and toolChoice. */
  samplingTools?: boolean;
  /** Answers elicitation/create (form and, if declared, URL mode). */
  elicitation?: (params: ElicitParams, extra: HandlerExtra) => ElicitResult | Promise<ElicitResult>;
  /** Declared elicitation modes (default ["form"]). */
  elicitationModes?: ("form" | "url")[];
  /** Fill schema defaults into accepted forms (SEP-1034). Default true. */
  applyElicitationDefaults?: boolean;
  /** Answers roots/list: a callback, or a fixed list (changed later with setRoots). */
  roots?: (() => ListRootsResult | Promise<ListRootsResult>) | Root[];
  onLog?: (message: LoggingMessage) => void;
  /** Every progress notification (per-call progress goes to the call's onprogress). */
  onProgress?: (notification: ProgressNotification) => void;
  /**
   * List-changed handlers. On modern (2026-07-28) servers that advertise
   * listChanged, setting one makes the client open its own ("managed")
   * subscriptions/listen stream for it, which also carries the updates asked
   * for with subscribe(); it is re-opened with backoff when it ends. A change
   * the server also sends on a stream opened with listen() calls these
   * handlers once (the listen() stream's own onNotification gets its copy).
   */
  onToolsListChanged?: () => void;
  onPromptsListChanged?: () => void;
  onResourcesListChanged?: () => void;
  onResourceUpdated?: (notification: ResourceUpdated) => void;
  onElicitationComplete?: (notification: ElicitationComplete) => void;
  /** A tee of every JSON-RPC message ("in" or "out"). */
  onMessage?: (direction: "in" | "out", message: object) => void;
  /** Non-fatal problems (a tool dropped for an invalid x-mcp-header, a malformed message, …). */
  onWarning?: (message: string) => void;
  /** Capabilities declared in addition to those implied by the handlers. */
  capabilities?: ClientCapabilities;
  /** Accepted protocol versions in preference order (default: 2026-07-28, then the legacy ones). */
  protocolVersions?: string[];
  /**
   * The protocol era by name: "modern" (2026-07-28), "legacy" (2025-11-25
   * back to 2024-11-05, with initialize and sessions) or "auto" (the
   * default: modern first, legacy when the server speaks only that). With
   * protocolVersions it keeps those of the era; none left is a TypeError.
   */
  era?: Era;
  /** Initial log level. */
  logLevel?: LoggingLevel;
  /** Default per-request timeout in ms (default 60000; 0 or negative: none). */
  requestTimeout?: number;
  /** Default hard limit in ms even when progress resets the timeout (default, 0 or negative: none). */
  maxTotalTimeout?: number;
  /** Maximum input_required rounds of one call (default 16). */
  maxInputRounds?: number;
  /** Use the ttlMs result cache (default true). */
  cache?: boolean;
  /** Validate structuredContent against tool output schemas (default true). */
  validateOutput?: boolean;
  /**
   * Declare the 2026-07-28 tasks extension (io.modelcontextprotocol/tasks)
   * with every modern request, so the server may answer any tools/call with
   * a task (callTool then waits for it). Default false: the extension is
   * declared only by the tasks API (callToolAsTask, getTask, Task methods)
   * and on a callTool the server refused for want of it.
   */
  tasks?: boolean;
  /**
   * Opt-in retries of requests that failed with HTTP 429, 502, 503 or 504
   * (default: none). The delay is the server's Retry-After, else exponential
   * backoff from `delay` with ±20% jitter, capped at `maxDelay`; the call's
   * timeout, maxTotalTimeout and signal bound the whole. Only requests that
   * are safe to repeat are retried: every request but tools/call, and
   * tools/call only for tools whose annotations say readOnlyHint or
   * idempotentHint. `true` means the defaults.
   */
  retry?: boolean | RetryPolicy;
  /** Ping the server every keepAlive ms while connected (default, 0 or negative: no pings); a failed ping goes to onWarning. */
  keepAlive?: number;
  /** Notification handlers waiting to run before further notifications are dropped, with a warning (default 4096). */
  maxQueuedNotifications?: number;
  /** Legacy server→client requests handled at once; more are answered with an error (default 32). */
  maxServerRequests?: number;
}

export interface RetryPolicy {
  /** Attempts, the first included (default 3). */
  attempts?: number;
  /** First backoff delay in ms (default and 0: 500). */
  delay?: number;
  /** Cap of one delay in ms, Retry-After included (default and 0: 10000). */
  maxDelay?: number;
}

/**
 * A transport written in JavaScript (connect's transport "port"): whole
 * JSON-RPC messages in both directions. mcpwasm/node's stdioPort is one.
 */
export interface McpPort {
  /** Called once by connect: call onMessage for each incoming message, onEnd once when the channel ended (no error: orderly). */
  start(onMessage: (json: string) => void, onEnd: (error?: Error) => void): void;
  /** One outgoing message; may throw. */
  send(json: string): void;
  /** The client is done: end the channel; call neither function afterwards. */
  close(): void;
}

export interface ConnectOptions {
  /** Default "auto": Streamable HTTP, falling back to HTTP+SSE. "websocket" is an extension; "port" takes the option port. */
  transport?: "auto" | "streamable-http" | "sse" | "websocket" | "port";
  /** The transport of transport "port" (the url is then only a label). */
  port?: McpPort;
  /** Headers sent with every HTTP request (for example Authorization). */
  headers?: Record<string, string> | Headers;
  /**
   * Your own fetch function (instrumentation, proxies, tests). Without it,
   * the Node entry point makes HTTP requests with Node's modules: in Node
   * http: and https: ones (several times cheaper than Node's fetch), in
   * Bun and Deno http: ones; unless globalThis.fetch was replaced, an
   * undici global dispatcher other than an Agent is set or
   * NODE_USE_ENV_PROXY is (Node), or a proxy variable is set (Bun, Deno;
   * in Deno also when the script may not read them): proxies are fetch's.
   * Pass `fetch: globalThis.fetch` to use the runtime's fetch anyway.
   */
  fetch?: typeof fetch;
  credentials?: RequestCredentials;
  mode?: RequestMode;
  /** Largest accepted message in bytes. */
  maxMessageSize?: number;
  /** Overrides the client's protocolVersions for this connection. */
  protocolVersions?: string[];
  /** Overrides the client's era for this connection (see ClientOptions.era). */
  era?: Era;
  signal?: AbortSignal;
  /** OAuth 2.1 authorization of the HTTP transport (servers that answer 401). */
  auth?: AuthOptions;
}

// ---------------------------------------------------------------- authorization

/** The second argument of onAuthorizationUrl. */
export interface AuthorizationInfo {
  /** The redirect URI of the authorization request. */
  redirectUri: string;
  /** The authorization request's state (the callback URL must carry it). */
  state: string;
  /**
   * Whether auth.storage keeps the pending authorization, so that the page
   * may go to the authorization server itself and finish with callbackUrl.
   */
  resumable: boolean;
  /** Aborts when the client gives up (authorizationTimeout). */
  signal?: AbortSignal;
}

/**
 * The user-agent step: show the user the authorization URL and resolve with
 * the URL the authorization server redirected back to (the redirect URI
 * with code, state and iss), or with null after sending the whole page to
 * the authorization server (the connection then rejects with an McpError of
 * kind "auth" and data.redirected; the page at the redirect URI finishes it
 * with callbackUrl).
 */
export type OnAuthorizationUrl = (url: string, info: AuthorizationInfo) => string | null | Promise<string | null>;

/** An onAuthorizationUrl made by popupAuthorization or loopbackAuthorization: it knows its redirect URI. */
export interface AuthorizationAgent extends OnAuthorizationUrl {
  readonly redirectUri: string;
}

/**
 * Where registrations, tokens and pending authorizations are kept (default:
 * memory, for the connection's life). Keys and values are strings (values
 * are JSON); each function may return a Promise. load returns null for an
 * absent key. Without remove, deletion saves "null".
 */
export interface AuthStorage {
  load(key: string): string | null | undefined | Promise<string | null | undefined>;
  save(key: string, value: string): void | Promise<void>;
  remove?(key: string): void | Promise<void>;
}

/** Pre-registered client credentials. */
export interface AuthClient {
  id: string;
  secret?: string;
  /** A PEM private key (PKCS #8, SEC 1 or PKCS #1; P-256, P-384 or RSA ≥ 2048) for private_key_jwt. */
  privateKeyPem?: string;
  authMethod?: "none" | "client_secret_basic" | "client_secret_post" | "private_key_jwt";
  /** The issuer the credentials belong to (default: the first authorization server they are used with). */
  issuer?: string;
}

/** The token request a JWT bearer assertion is for. */
export interface AssertionRequest {
  issuer: string;
  tokenEndpoint: string;
  resource: string;
  scopes: string[];
}

/** Enterprise-managed authorization: the user's identity provider exchanges their ID token for an ID-JAG. */
export interface IdJagOptions {
  tokenEndpoint: string;
  clientId: string;
  clientSecret?: string;
  /** The user's ID token from the identity provider. */
  subjectToken: () => string | Promise<string>;
  subjectTokenType?: string;
}

export interface AuthOptions {
  /** Default "authorization_code" ("jwt_bearer" with idJag). */
  grant?: "authorization_code" | "client_credentials" | "jwt_bearer";
  /** The user-agent step (popupAuthorization(), loopbackAuthorization() from mcpwasm/node, or your own). */
  onAuthorizationUrl?: OnAuthorizationUrl | AuthorizationAgent;
  /** "headless": read the authorization server's redirect without a user (test servers; Node only). */
  userAgent?: "headless";
  /** Default: onAuthorizationUrl.redirectUri. */
  redirectUri?: string;
  /** The page's URL at the redirect URI after a full-page redirect: finishes the pending authorization. */
  callbackUrl?: string;
  client?: AuthClient;
  /** The HTTPS URL of the client's Client ID Metadata Document. */
  clientMetadataUrl?: string;
  /** client_name of dynamic registrations (default "mcpwasm"). */
  clientName?: string;
  applicationType?: "native" | "web";
  /** Scopes requested in addition to those the server asks for. */
  scopes?: string[];
  /** Ask for offline_access (a refresh token) when the server supports it. Default true. */
  offlineAccess?: boolean;
  /** Sender-constrained (DPoP) tokens with a new non-extractable WebCrypto key per connection. */
  dpop?: boolean;
  idJag?: IdJagOptions;
  /** The assertion of the jwt_bearer grant (a workload identity token). */
  assertion?: (request: AssertionRequest) => string | Promise<string>;
  storage?: AuthStorage;
  /** How many fresh tokens the server may refuse in a row (default 3). */
  maxAuthorizations?: number;
  /** Bound of one authorization in ms, the user's sign-in included (default 600000; must be positive: this wait stays bounded). */
  authorizationTimeout?: number;
  /**
   * Accept plain-HTTP URLs from servers (metadata, authorization server endpoints) on any host.
   * Default false: HTTPS only, plain HTTP only on loopback when the MCP server is on loopback. Never in production.
   */
  allowInsecureHttp?: boolean;
  /**
   * Let servers name URLs on loopback, private (10/8, 172.16/12, 192.168/16, 100.64/10, fc00::/7) and
   * link-local (169.254/16, fe80::/10) addresses whatever the MCP server's address. Default false: such
   * URLs only when the MCP server is in the same class of network. For tests and development.
   */
  allowPrivateAddresses?: boolean;
  /** A line for each step of an authorization. */
  onLog?: (line: string) => void;
}

export interface PopupAuthorizationOptions {
  /** The absolute URL of the page that calls authorizationCallback(). */
  redirectUri: string;
  width?: number;
  height?: number;
  /** Default 300000. */
  timeoutMs?: number;
  /** When the popup is blocked: "redirect" (default; needs auth.storage) sends the whole page, "none" fails. */
  fallback?: "redirect" | "none";
  /** The BroadcastChannel name (default "mcpwasm-oauth"). */
  channel?: string;
  /**
   * End the authorization when the user closes the popup (default true).
   * Pass false for authorization servers that send
   * Cross-Origin-Opener-Policy: same-origin (the page then sees the popup as
   * closed at once); an abandoned sign-in then ends after timeoutMs.
   */
  detectClose?: boolean;
}

/** An onAuthorizationUrl for pages: a popup, with a full-page redirect when the popup is blocked. */
export function popupAuthorization(options: PopupAuthorizationOptions): AuthorizationAgent;

export interface AuthorizationCallbackOptions {
  /** The opener's origin (default: this page's). */
  targetOrigin?: string;
  channel?: string;
  /** How long to wait for the opener to take the response (default 1000). */
  ackTimeoutMs?: number;
  /** Close the window once the opener took the response (default true). */
  close?: boolean;
}

/**
 * For the page at the redirect URI: hands the authorization response to the
 * popup's opener and resolves with null, or — after a full-page redirect,
 * with nobody waiting — resolves with this page's URL, the callbackUrl.
 */
export function authorizationCallback(options?: AuthorizationCallbackOptions): Promise<string | null>;

/** AuthStorage on localStorage (or the given Web Storage), keys prefixed (default "mcpwasm:auth:"). */
export function localStorageStore(prefix?: string, storage?: Storage): AuthStorage;

export interface SessionInfo {
  era: "modern" | "legacy";
  protocolVersion: string;
  serverInfo?: Implementation;
  serverCapabilities: ServerCapabilities;
  instructions?: string;
  sessionId?: string;
  /** Why the legacy GET stream was given up after repeated failures (absent while it runs). */
  backgroundStreamError?: string;
}

export interface RequestOptions {
  signal?: AbortSignal;
  /** Idle timeout in ms (default: the client's requestTimeout; 0 or negative: none). */
  timeout?: number;
  /** Progress of this request; setting it sends a progress token. */
  onprogress?: (progress: Progress) => void;
  resetTimeoutOnProgress?: boolean;
  /** Hard limit in ms even when progress resets the timeout (default: the client's; 0 or negative: none). */
  maxTotalTimeout?: number;
  /** false: skip the ttlMs cache for this request. */
  cache?: boolean;
  /** Extra _meta members. */
  _meta?: Meta;
  /**
   * callTool only. Default true: a task the server answers with (or insists
   * on) is waited for and its result resolves. false: reject with an
   * McpError of kind "task" whose data is {taskId, state}.
   */
  taskWait?: boolean;
}

// ---------------------------------------------------------------- tasks

/** A task's status (both eras). */
export type TaskStatus = "working" | "input_required" | "completed" | "failed" | "cancelled";

/** A snapshot of a task as the server last described it. */
export interface TaskState {
  /** The task id ("" for a call the server answered directly). */
  id: string;
  status: TaskStatus;
  statusMessage?: string;
  createdAt?: string;
  lastUpdatedAt?: string;
  /** Retention from creation in ms; null: unlimited. */
  ttl: number | null;
  /** The server's suggested polling interval in ms (0: none). */
  pollInterval: number;
}

export interface TaskCallOptions {
  signal?: AbortSignal;
  /** Idle timeout of the creating request in ms (default: the client's; 0 or negative: none). */
  timeout?: number;
  /** Retention asked of a 2025-11-25 server in ms (2026-07-28 servers choose). */
  ttl?: number;
}

export interface TaskWaitOptions {
  /** Stops the wait (the task goes on: wait again, or cancel). */
  signal?: AbortSignal;
  /** Each new state the client observes (from a poll or a status notification). */
  onStatus?: (state: TaskState) => void;
  /** Caps the server's polling interval and the backoff, in ms (default 30000). */
  maxPollInterval?: number;
}

/** One page of tasks/list (2025-11-25). */
export interface ListTasksResult {
  tasks: TaskState[];
  nextCursor?: string;
}

/**
 * The handle of a task on the server. Store id to resume the task later
 * (after a page reload) with client.getTask(id).
 */
export class Task {
  private constructor();
  readonly id: string;
  readonly status: TaskStatus;
  readonly statusMessage: string | undefined;
  /** The server's suggested polling interval in ms (0: none). */
  readonly pollInterval: number;
  readonly state: TaskState;
  /**
   * Resolves with the final CallToolResult, polling at the server's
   * interval (or woken by its status notifications), bounded by signal.
   * Input the task needs goes to the client's sampling/elicitation
   * handlers. A failed task rejects with the server's error (kind "rpc"), a
   * cancelled one with kind "task-cancelled".
   */
  wait(options?: TaskWaitOptions): Promise<CallToolResult>;
  /** One tasks/get. */
  refresh(options?: { signal?: AbortSignal }): Promise<TaskState>;
  /** tasks/cancel (cooperative: wait() tells how the task ended). */
  cancel(options?: { signal?: AbortSignal }): Promise<TaskState>;
}

export interface ListenOptions {
  signal?: AbortSignal;
  /** The subscription's notifications (also delivered to the client's callbacks). */
  onNotification?: (method: string, params: unknown) => void;
}

export interface Subscription {
  id: number;
  acknowledged: SubscriptionFilter;
  /** Resolves when the subscription ends: undefined when gracefully, else the McpError. */
  closed: Promise<McpError | undefined>;
  close(): Promise<void>;
}

/** A protocol era by name (ClientOptions.era, ConnectOptions.era). */
export type Era = "modern" | "legacy" | "auto";

export class Client {
  constructor(info: Implementation, options?: ClientOptions);
  /**
   * Settles when the current connection (before connect: the next one)
   * ends: with undefined after close(), with the McpError that ended the
   * session otherwise. It never rejects; each connection gets a new Promise.
   */
  readonly closed: Promise<McpError | undefined>;
  /** True from a successful connect until the session ends or close(). */
  readonly isConnected: boolean;
  /** A new, unconnected client with the same identity and options. */
  clone(): Client;
  connect(url: string | URL, options?: ConnectOptions): Promise<SessionInfo>;
  readonly serverInfo: Implementation | undefined;
  readonly serverCapabilities: ServerCapabilities | undefined;
  readonly protocolVersion: string | undefined;
  readonly instructions: string | undefined;
  readonly era: "modern" | "legacy" | undefined;
  readonly sessionId: string | undefined;
  /** Why the legacy GET stream was given up after repeated failures (onWarning was told), or undefined while it runs. */
  readonly backgroundStreamError: string | undefined;

  request<R extends Result = Result>(method: string, params?: object, options?: RequestOptions): Promise<R>;
  notify(method: string, params?: object): Promise<void>;
  ping(): Promise<void>;

  listTools(params?: PaginatedParams, options?: RequestOptions): Promise<ListToolsResult>;
  tools(params?: PaginatedParams, options?: RequestOptions): AsyncIterableIterator<Tool>;
  callTool(params: CallToolParams, options?: RequestOptions): Promise<CallToolResult>;
  callToolOrThrow(params: CallToolParams, options?: RequestOptions): Promise<CallToolResult>;
  /**
   * Calls a tool as a task (2025-11-25) or allowing one (2026-07-28). A
   * server that answers directly gives a completed Task with an empty id
   * whose wait() resolves with the result.
   */
  callToolAsTask(params: CallToolParams, options?: TaskCallOptions): Promise<Task>;
  /** Resumes a task by id (tasks/get); an unknown id rejects (kind "rpc", code -32602). */
  getTask(taskId: string, options?: { signal?: AbortSignal }): Promise<Task>;
  /** One page of tasks/list (2025-11-25 servers that offer it; otherwise kind "protocol"). */
  listTasks(params?: PaginatedParams, options?: { signal?: AbortSignal }): Promise<ListTasksResult>;
  listResources(params?: PaginatedParams, options?: RequestOptions): Promise<ListResourcesResult>;
  resources(params?: PaginatedParams, options?: RequestOptions): AsyncIterableIterator<Resource>;
  listResourceTemplates(params?: PaginatedParams, options?: RequestOptions): Promise<ListResourceTemplatesResult>;
  resourceTemplates(params?: PaginatedParams, options?: RequestOptions): AsyncIterableIterator<ResourceTemplate>;
  readResource(params: ReadResourceParams, options?: RequestOptions): Promise<ReadResourceResult>;
  listPrompts(params?: PaginatedParams, options?: RequestOptions): Promise<ListPromptsResult>;
  prompts(params?: PaginatedParams, options?: RequestOptions): AsyncIterableIterator<Prompt>;
  getPrompt(params: GetPromptParams, options?: RequestOptions): Promise<GetPromptResult>;
  complete(params: CompleteParams, options?: RequestOptions): Promise<CompleteResult>;

  setLogLevel(level: LoggingLevel): Promise<void>;
  subscribe(uri: string): Promise<void>;
  unsubscribe(uri: string): Promise<void>;
  listen(filter: SubscriptionFilter, options?: ListenOptions): Promise<Subscription>;
  setRoots(roots: Root[]): Promise<void>;
  /** Ends the session (a legacy HTTP session is deleted) and frees the client in the module; connect may follow. */
  close(): Promise<void>;
}

// ---------------------------------------------------------------- many servers (McpManager)

/** One entry of the de-facto "mcpServers" configuration. */
export interface ServerConfig {
  /** The server's URL (HTTP(S) or WS servers). */
  url?: string | URL;
  headers?: Record<string, string>;
  /** Default "auto" for a url, "stdio" for a command. */
  transport?: "auto" | "streamable-http" | "sse" | "websocket" | "stdio";
  /** The "type" some configuration files carry ("stdio", "http", "sse", "websocket"): sets transport. */
  type?: string;
  /** A stdio server's program (mcpwasm/node only). */
  command?: string;
  args?: string[];
  /** Added to the manager process's environment. */
  env?: Record<string, string>;
  cwd?: string;
  /** Only these of the server's own tool names. */
  allowTools?: string[];
  /** Not these of the server's own tool names. */
  denyTools?: string[];
  /** Configured but not connected. */
  disabled?: boolean;
  auth?: AuthOptions;
  era?: Era;
}

export interface ManagerConfig { mcpServers: Record<string, ServerConfig> }

export type ServerStatus = "connecting" | "connected" | "reconnecting" | "failed" | "closed";

export interface ServerState {
  name: string;
  status: ServerStatus;
  /** Why the last attempt failed (reconnecting, failed). */
  error?: McpError;
  serverInfo?: Implementation;
  /** The server's client, only while connected. */
  client?: Client;
  /** A stdio server's process id, while connected (mcpwasm/node). */
  pid?: number;
}

/** A tool of the aggregate: name is "<server><separator><tool>". */
export interface ManagedTool extends Tool { name: string; server: string; toolName: string }
export interface ManagedResource extends Resource { server: string }
export interface ManagedResourceTemplate extends ResourceTemplate { server: string }
/** A prompt of the aggregate: name is "<server><separator><prompt>". */
export interface ManagedPrompt extends Prompt { name: string; server: string; promptName: string }

export interface ManagerReconnectOptions {
  /** First backoff delay in ms (default 500), doubled per attempt with ±20% jitter. */
  delay?: number;
  /** Cap of one delay in ms (default 30000). */
  maxDelay?: number;
  /** Attempts per loop, the first included (default 8); then the status is "failed" until reconnect(name). */
  attempts?: number;
}

export interface ManagerOptions {
  /** The identity every server sees (default {name: "mcpwasm-manager", version: "0.1.0"}). */
  clientInfo?: Implementation;
  /** Between the server's and the tool's name (default "__"). */
  separator?: string;
  sampling?: (params: CreateMessageParams, extra: HandlerExtra & { server: string }) => CreateMessageResult | Promise<CreateMessageResult>;
  elicitation?: (params: ElicitParams, extra: HandlerExtra & { server: string }) => ElicitResult | Promise<ElicitResult>;
  roots?: Root[] | ((extra: { server: string }) => ListRootsResult | Promise<ListRootsResult>);
  onLog?: (message: LoggingMessage, extra: { server: string }) => void;
  onProgress?: (notification: ProgressNotification, extra: { server: string }) => void;
  /** A stdio server's stderr, line by line (mcpwasm/node). */
  onStderr?: (line: string, extra: { server: string }) => void;
  /** Everything else, applied to every server's client. */
  clientOptions?: ClientOptions;
  /** Connect options for every HTTP/WebSocket server (headers, auth, transport and era come from its entry). */
  connectOptions?: Pick<ConnectOptions, "fetch" | "credentials" | "mode" | "maxMessageSize" | "protocolVersions">;
  reconnect?: ManagerReconnectOptions;
  /** Ping every connected server every healthCheck ms (default 0: none); a failed ping starts reconnection. */
  healthCheck?: number;
}

export interface ManagerChange { server: string; kind: "tools" | "resources" | "prompts" | "servers" }

export interface McpManagerEventMap {
  change: CustomEvent<ManagerChange>;
  status: CustomEvent<ServerState>;
}

/**
 * Many servers as one: each connects, fails and reconnects on its own; one
 * namespaced aggregate of tools, resources and prompts; calls routed to
 * their server; the same handlers for every server, told which one asks.
 * Events: "change" once per aggregate update, "status" when a server's
 * status changes.
 */
export class McpManager extends EventTarget {
  constructor(config?: ManagerConfig | string, options?: ManagerOptions);
  /** Connects every configured server concurrently; resolves after each one's first attempt; never rejects because one failed. */
  connect(options?: { signal?: AbortSignal }): Promise<ServerState[]>;
  /** Adds a server and connects it (resolves after the first attempt). */
  add(name: string, config: ServerConfig): Promise<ServerState>;
  remove(name: string): Promise<void>;
  /** Starts a server's connection loop again (after "failed"). */
  reconnect(name: string): Promise<ServerState>;
  close(): Promise<void>;
  servers(): ServerState[];
  server(name: string): ServerState | undefined;
  client(name: string): Client | undefined;
  tools(): ManagedTool[];
  /** The aggregate's tool of a namespaced name. */
  tool(name: string): ManagedTool | undefined;
  resources(): ManagedResource[];
  resourceTemplates(): ManagedResourceTemplate[];
  prompts(): ManagedPrompt[];
  /** Calls a tool by its namespaced name. Unknown name: kind "input"; its server not connected: kind "closed". */
  callTool(params: { name: string; arguments?: { [key: string]: unknown }; _meta?: Meta }, options?: RequestOptions): Promise<CallToolResult>;
  /** Reads from params.server, or else from the server that lists the URI. */
  readResource(params: { uri: string; server?: string; _meta?: Meta }, options?: RequestOptions): Promise<ReadResourceResult>;
  getPrompt(params: { name: string; arguments?: Record<string, string>; _meta?: Meta }, options?: RequestOptions): Promise<GetPromptResult>;
  addEventListener<K extends keyof McpManagerEventMap>(type: K, listener: (ev: McpManagerEventMap[K]) => void, options?: boolean | AddEventListenerOptions): void;
  addEventListener(type: string, listener: EventListenerOrEventListenerObject | null, options?: boolean | AddEventListenerOptions): void;
  removeEventListener<K extends keyof McpManagerEventMap>(type: K, listener: (ev: McpManagerEventMap[K]) => void, options?: boolean | EventListenerOptions): void;
  removeEventListener(type: string, listener: EventListenerOrEventListenerObject | null, options?: boolean | EventListenerOptions): void;
}

/** Checks an mcpServers configuration (JSON text or object). */
export function parseConfig(json: string | ManagerConfig): ManagerConfig;
/** The aggregate's name of a server's tool or prompt: sanitized to [A-Za-z0-9_-], at most 64 characters. */
export function namespacedName(server: string, item: string, separator?: string): string;

// ---------------------------------------------------------------- tools for the model

export interface OpenAIChatTool { type: "function"; function: { name: string; description: string; parameters: JSONSchema } }
export interface OpenAIResponsesTool { type: "function"; name: string; description: string; parameters: JSONSchema }
export interface AnthropicTool { name: string; description: string; input_schema: JSONSchema }

export interface OpenAIChatToolCall { id: string; type?: "function"; function: { name: string; arguments: string } }
export interface OpenAIChatTextPart { type: "text"; text: string }
export type OpenAIChatMediaPart =
  | { type: "image_url"; image_url: { url: string } }
  | { type: "input_audio"; input_audio: { data: string; format: "wav" | "mp3" } };
export type OpenAIChatToolResultMessage =
  | { role: "tool"; tool_call_id: string; content: string | OpenAIChatTextPart[] }
  | { role: "user"; content: (OpenAIChatTextPart | OpenAIChatMediaPart)[] };
export interface OpenAIResponsesFunctionCall { type: "function_call"; call_id: string; name: string; arguments: string }
export type OpenAIResponsesOutputPart =
  | { type: "input_text"; text: string }
  | { type: "input_image"; image_url: string }
  | { type: "input_file"; filename: string; file_data: string };
export interface OpenAIResponsesFunctionCallOutput { type: "function_call_output"; call_id: string; output: string | OpenAIResponsesOutputPart[] }
export interface AnthropicToolUse { type: "tool_use"; id: string; name: string; input: { [key: string]: unknown } }
export type AnthropicToolResultContent =
  | { type: "text"; text: string }
  | { type: "image"; source: { type: "base64"; media_type: string; data: string } }
  | { type: "document"; source: { type: "base64"; media_type: "application/pdf"; data: string } };
export interface AnthropicToolResultMessage {
  role: "user";
  content: { type: "tool_result"; tool_use_id: string; content: AnthropicToolResultContent[]; is_error: boolean }[];
}

export interface RunToolCallsOptions {
  /** Aborting it rejects the run (other failures become error results). */
  signal?: AbortSignal;
  onprogress?: (callId: string, progress: Progress) => void;
  /** runOpenAIChatToolCalls: append a user message with the results' images and audio (default true). */
  media?: boolean;
}

/**
 * Whether the model may see and call a tool: false when the MCP Apps
 * `_meta.ui.visibility` list leaves out "model" (a tool only its app may
 * call). The to*Tools functions leave such tools out, and the run*
 * functions answer a model's call of one with an error result.
 */
export function modelVisible(tool: Tool): boolean;
/** The tools of an OpenAI chat completions request. */
export function toOpenAIChatTools(tools: ManagedTool[]): OpenAIChatTool[];
/** The tools of an OpenAI responses request. */
export function toOpenAIResponsesTools(tools: ManagedTool[]): OpenAIResponsesTool[];
/** The tools of an Anthropic messages request. */
export function toAnthropicTools(tools: ManagedTool[]): AnthropicTool[];
/** Runs tool_calls; resolves with a tool message per call (in order), then a user message with media if any. */
export function runOpenAIChatToolCalls(manager: McpManager, toolCalls: OpenAIChatToolCall[], options?: RunToolCallsOptions): Promise<OpenAIChatToolResultMessage[]>;
/** Runs the function_call items of a response's output (others are skipped). */
export function runOpenAIResponsesCalls(manager: McpManager, outputItems: ({ type: string } | OpenAIResponsesFunctionCall)[], options?: RunToolCallsOptions): Promise<OpenAIResponsesFunctionCallOutput[]>;
/** Runs the tool_use blocks of an assistant message (others are skipped). */
export function runAnthropicToolUses(manager: McpManager, contentBlocks: ({ type: string } | AnthropicToolUse)[], options?: RunToolCallsOptions): Promise<AnthropicToolResultMessage>;
/** A chat completions tool message's content (text only; isError: "Error: " first). */
export function toOpenAIChatContent(result: CallToolResult): string | OpenAIChatTextPart[];
/** The image and audio parts of a result for a chat completions user message. */
export function toOpenAIChatMedia(result: CallToolResult): OpenAIChatMediaPart[];
/** A responses function_call_output's output. */
export function toOpenAIResponsesOutput(result: CallToolResult): string | OpenAIResponsesOutputPart[];
/** An Anthropic tool_result block's content (is_error goes on the block). */
export function toAnthropicContent(result: CallToolResult): AnthropicToolResultContent[];
