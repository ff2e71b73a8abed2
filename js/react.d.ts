// Declarations of mcpwasm/react. React (and, for McpApp,
// @modelcontextprotocol/ext-apps) are optional peer dependencies needed at
// run time; these declarations name no React types, so they type-check
// without @types/react (McpApp is usable in JSX as a function component).
import type {
  Client, ClientOptions, ConnectOptions, AuthOptions, InitOptions, Implementation, SessionInfo, McpError,
  Tool, Resource, Prompt, CallToolParams, CallToolResult, ReadResourceParams, ReadResourceResult,
  GetPromptParams, GetPromptResult, RequestOptions, PopupAuthorizationOptions,
} from "./index.js";
import type { AppSource, AppManagedTool, AppView, RenderAppOptions } from "./apps.js";

/** "ready" comes with the first tools, resources and prompts loaded. */
export type McpConnectionState = "idle" | "connecting" | "ready" | "failed" | "closed";

export interface UseMcpOptions extends Pick<ClientOptions,
  "sampling" | "elicitation" | "roots" | "onLog" | "onProgress" | "onResourceUpdated" | "onElicitationComplete"> {
  clientInfo?: Implementation;
  /** Every other ClientOptions (list-changed handlers are set by the hook). */
  clientOptions?: ClientOptions;
  /** transport, headers, fetch, era, … (signal and auth are set by the hook). */
  connectOptions?: ConnectOptions;
  auth?: AuthOptions;
  /** OAuth sign-in in a popup (popupAuthorization); needs a user gesture: call connect() from a click when it was blocked. */
  popup?: PopupAuthorizationOptions;
  initOptions?: InitOptions;
  /** Connect on mount (default true). */
  autoConnect?: boolean;
  /** Declare MCP Apps support in the client's capabilities (default true). */
  apps?: boolean;
}

export interface UseMcpResult {
  state: McpConnectionState;
  error: McpError | Error | undefined;
  client: Client | undefined;
  info: SessionInfo | undefined;
  tools: Tool[];
  resources: Resource[];
  prompts: Prompt[];
  callTool(params: CallToolParams, options?: RequestOptions): Promise<CallToolResult>;
  readResource(params: ReadResourceParams, options?: RequestOptions): Promise<ReadResourceResult>;
  getPrompt(params: GetPromptParams, options?: RequestOptions): Promise<GetPromptResult>;
  /** Lists again (default all three). */
  refresh(kinds?: ("tools" | "resources" | "prompts")[]): Promise<void>;
  /** (Re)connects: with autoConnect false, or after a failure (a blocked sign-in popup). */
  connect(): Promise<void>;
  disconnect(): Promise<void>;
}

/** Connects to the MCP server at url while mounted and keeps its lists in state. */
export function useMcp(url: string, options?: UseMcpOptions): UseMcpResult;

export interface McpAppProps extends Pick<RenderAppOptions,
  "onMessage" | "onOpenLink" | "onLog" | "onToolCall" | "onModelContext" | "onSizeChange" | "onTeardownRequest" | "hostContext" | "maxHeight" | "hostInfo" |
  "onDownloadFile" | "onSampling" | "samplingTools" | "displayModes" | "onDisplayMode"> {
  source: AppSource | undefined;
  tool: Tool | AppManagedTool | undefined;
  /** The arguments while the model still streams them: sent (tool-input-partial) while toolInput is undefined. */
  toolInputPartial?: { [key: string]: unknown };
  toolInput?: { [key: string]: unknown };
  toolResult?: CallToolResult;
  onReady?: (view: AppView) => void;
  onError?: (error: unknown) => void;
  className?: string;
  style?: { [key: string]: string | number };
}

/** Renders a tool's MCP App (mcpwasm/apps) in a div; torn down on unmount or when source or tool change. */
export function McpApp(props: McpAppProps): any;
