// Declarations of mcpwasm/apps: an MCP Apps host (io.modelcontextprotocol/ui,
// revision 2026-01-26) for pages. Needs the optional peer dependency
// @modelcontextprotocol/ext-apps (its AppBridge) at run time; these
// declarations do not need it.
import type { Client, McpManager, ManagedTool, Tool, CallToolResult, ContentBlock, LoggingMessage, Implementation, EmbeddedResource, ResourceLink, CreateMessageParams, CreateMessageResult } from "./index.js";

/** The MIME type of an MCP App's HTML resource: "text/html;profile=mcp-app". */
export declare const APP_MIME_TYPE: "text/html;profile=mcp-app";
/** The extension's identifier: "io.modelcontextprotocol/ui". */
export declare const APPS_EXTENSION: "io.modelcontextprotocol/ui";
/**
 * The extension's sandbox proxy page, for RenderAppOptions.sandboxProxy:
 * serve it from an origin other than your page's (with
 * Content-Security-Policy: frame-ancestors <your page's origin>).
 */
export declare const SANDBOX_PROXY_HTML: string;
/** Client capabilities that tell servers the client renders MCP Apps (ClientOptions.capabilities). */
export declare const appsCapabilities: { readonly extensions: { readonly [key: string]: object } };

/** A tool of an McpManager (manager.tools()): it names its server. */
export type AppManagedTool = ManagedTool;

/**
 * Where apps reach their server: a connected Client, or an McpManager (then
 * the tool is one of manager.tools(), and the app's requests go to that
 * tool's server, looked up on every request).
 */
export type AppSource = Client | McpManager;

/** CSP origins a UI resource declares (_meta.ui.csp). */
export interface AppCsp {
  connectDomains?: string[];
  resourceDomains?: string[];
  frameDomains?: string[];
  baseUriDomains?: string[];
}

/** Browser permissions a UI resource asks for (_meta.ui.permissions). */
export interface AppPermissions {
  camera?: object;
  microphone?: object;
  geolocation?: object;
  clipboardWrite?: object;
}

/** An app read from its server. */
export interface AppResource {
  uri: string;
  html: string;
  csp?: AppCsp;
  permissions?: AppPermissions;
  /** The content's _meta.ui (csp, permissions, domain, prefersBorder). */
  meta: { [key: string]: unknown };
}

/** The ui:// URI of a tool's app (_meta.ui.resourceUri or the deprecated _meta["ui/resourceUri"]), or undefined. */
export function appResourceUri(tool: Pick<Tool, "name" | "_meta">): string | undefined;
/** Who may call a tool: its _meta.ui.visibility, default ["model", "app"]. */
export function toolVisibility(tool: Pick<Tool, "_meta">): ("model" | "app")[];
/** The Content-Security-Policy an app runs under, built from its declared csp (the extension's restrictive default when none). */
export function appCsp(csp?: AppCsp): string;
/** Reads a tool's app (resources/read on its server); undefined when the tool has none. */
export function readApp(source: AppSource, tool: Tool | AppManagedTool, options?: { signal?: AbortSignal }): Promise<AppResource | undefined>;

/** What the app sends with ui/message (a message for the conversation). */
export interface AppMessage {
  role: "user";
  content: ContentBlock[];
}

export interface RenderAppOptions {
  /**
   * The URL of SANDBOX_PROXY_HTML served on another origin than the page:
   * the app then runs as the spec describes, in an inner frame of that
   * proxy (with the proxy's origin: storage, stable origin). Unset: one
   * iframe with sandbox="allow-scripts" and an opaque origin. A URL on the
   * page's own origin is a TypeError.
   */
  sandboxProxy?: string | URL;
  /** The inner frame's sandbox behind a proxy (default "allow-scripts allow-same-origin": the proxy's origin). */
  proxiedSandbox?: string;
  /** The app, when already read (readApp); read from the server otherwise. */
  app?: AppResource;
  signal?: AbortSignal;
  /** Host identity sent to the app (default { name: "mcpwasm-apps", version }). */
  hostInfo?: Implementation;
  /** Merged into the host context (theme, locale, styles, containerDimensions, …). */
  hostContext?: { [key: string]: unknown };
  /** Arguments to deliver as ui/notifications/tool-input once the app has initialized. */
  toolInput?: { [key: string]: unknown };
  /** A result to deliver as ui/notifications/tool-result once the app has initialized. */
  toolResult?: CallToolResult;
  /** ui/message: add the app's message to the conversation. false (or a throw): the app is told it failed. Unset: ui/message is not offered. */
  onMessage?: (message: AppMessage) => void | boolean | Promise<void | boolean>;
  /** ui/open-link with an http(s) URL. Unset: window.open(url, "_blank", "noopener,noreferrer"); null: links refused. */
  onOpenLink?: ((url: string) => void | boolean | Promise<void | boolean>) | null;
  /** ui/update-model-context: context for the model's next turn. */
  onModelContext?: (context: { content?: ContentBlock[]; structuredContent?: { [key: string]: unknown } }) => void | Promise<void>;
  /** notifications/message from the app. */
  onLog?: (message: LoggingMessage) => void;
  /** Every tools/call of the app, before it goes to the server; a throw refuses it. */
  onToolCall?: (params: { name: string; arguments?: { [key: string]: unknown } }) => void | Promise<void>;
  /** ui/notifications/size-changed (the iframe's height already follows it). */
  onSizeChange?: (size: { width?: number; height?: number }) => void;
  /** ui/notifications/request-teardown: the app asks to be closed. */
  onTeardownRequest?: () => void;
  /**
   * ui/download-file: the app asks the user to save files (checked first: at most 64 items, each an
   * embedded resource with text or a base64 blob, or a resource link; 64 Mi characters of data in
   * all). Confirm with the user, then save; a resource link's uri is the server's: fetch it only if
   * it is safe. false (or a throw): the app is told it failed. Unset: ui/download-file is not offered.
   */
  onDownloadFile?: (contents: (EmbeddedResource | ResourceLink)[], extra: { signal?: AbortSignal }) => void | boolean | Promise<void | boolean>;
  /** sampling/createMessage from the app: answer with the page's model (its result is the app's). Unset: sampling is not offered. */
  onSampling?: (params: CreateMessageParams, extra: { signal?: AbortSignal }) => CreateMessageResult | Promise<CreateMessageResult>;
  /** Offer tool use to the app's sampling (tools, toolChoice); otherwise such requests are refused. */
  samplingTools?: boolean;
  /** The display modes offered to the app, the first being the initial one (default ["inline"]); more than one needs onDisplayMode. */
  displayModes?: ("inline" | "fullscreen" | "pip")[];
  /**
   * ui/request-display-mode for an offered mode other than the current one: lay the app out in it
   * and return the mode it is now in (a mode not offered, or nothing, keeps the current one). The
   * app is told of the change (ui/notifications/host-context-changed).
   */
  onDisplayMode?: (mode: "inline" | "fullscreen" | "pip") => "inline" | "fullscreen" | "pip" | void | Promise<"inline" | "fullscreen" | "pip" | void>;
  /** Largest iframe height in px (default 2000). */
  maxHeight?: number;
  /** Height before the app reports its size (default 150). */
  initialHeight?: number;
  /** Also follow the app's reported width. */
  fitWidth?: boolean;
  /** The iframe's title (default the tool's title or name). */
  title?: string;
  /** How long close() waits for the app's teardown answer in ms (default 500). */
  teardownTimeout?: number;
}

/** A rendered app. */
export interface AppView {
  readonly iframe: HTMLIFrameElement;
  /** The AppBridge (of @modelcontextprotocol/ext-apps) that talks to the app. */
  readonly bridge: unknown;
  readonly uri: string;
  /** The CSP the app runs under. */
  readonly csp: string;
  /** Settles when the app sent ui/notifications/initialized. */
  readonly initialized: Promise<void>;
  sendToolInput(args?: { [key: string]: unknown }): Promise<void>;
  /**
   * Sends the arguments so far while the model is still producing them
   * (ui/notifications/tool-input-partial), before sendToolInput: each call
   * carries the whole object as it stands (a prefix a streaming JSON parser
   * could close), which the app may render as a preview.
   */
  sendToolInputPartial(args?: { [key: string]: unknown }): Promise<void>;
  sendToolResult(result: CallToolResult): Promise<void>;
  sendToolCancelled(reason?: string): Promise<void>;
  setHostContext(context: { [key: string]: unknown }): void;
  /** The display mode the app is in. */
  readonly displayMode: "inline" | "fullscreen" | "pip";
  /** The page changed the layout by itself (the user left fullscreen): tells the app. A mode not offered is a TypeError. */
  setDisplayMode(mode: "inline" | "fullscreen" | "pip"): void;
  /** Tears the app down (ui/resource-teardown, bounded wait) and removes the iframe. */
  close(): Promise<void>;
}

/** Renders a tool's app into container and connects it to the tool's server. */
export function renderApp(source: AppSource, tool: Tool | AppManagedTool, container: Element, options?: RenderAppOptions): Promise<AppView>;

/** Calls the tool and renders its app with the arguments and then the result delivered; view is undefined when the tool has no app. */
export function callToolWithApp(
  source: AppSource,
  tool: Tool | AppManagedTool,
  args: { [key: string]: unknown } | undefined,
  container: Element,
  options?: RenderAppOptions,
): Promise<{ result: CallToolResult; view: AppView | undefined }>;
