// mcpwasm/apps: an MCP Apps host (the io.modelcontextprotocol/ui extension,
// revision 2026-01-26) for pages. A tool whose _meta names a ui:// resource
// gets that HTML rendered in a sandboxed iframe; the app talks to the host
// through the official host bridge (AppBridge of
// @modelcontextprotocol/ext-apps, an optional peer dependency), and its
// requests go to the tool's own server through an mcpwasm Client or
// McpManager. docs/apps.md gives the reasons (sandbox, CSP, the bridge).
import { AppBridge, PostMessageTransport, buildAllowAttribute } from "@modelcontextprotocol/ext-apps/app-bridge";
import { McpError, ErrorCode } from "./errors.js";
import { checkOptions } from "./loader.js";

/** APP_MIME_TYPE is the MIME type of an MCP App's HTML resource. */
export const APP_MIME_TYPE = "text/html;profile=mcp-app";

/** APPS_EXTENSION is the extension's identifier in capabilities. */
export const APPS_EXTENSION = "io.modelcontextprotocol/ui";

/**
 * appsCapabilities is what a client declares (ClientOptions.capabilities)
 * to tell servers it renders MCP Apps.
 */
export const appsCapabilities = Object.freeze({ extensions: { [APPS_EXTENSION]: { mimeTypes: [APP_MIME_TYPE] } } });

const DEFAULT_HOST_INFO = { name: "mcpwasm-apps", version: "0.1.0" };
const MAX_HTML = 8 << 20; // characters of app HTML accepted
const SANDBOX = "allow-scripts";
const PROXY_SANDBOX = "allow-scripts allow-same-origin";
const DISPLAY_MODES = ["inline", "fullscreen", "pip"];
const MAX_DOWNLOAD_ITEMS = 64; // items of one ui/download-file
const MAX_DOWNLOAD_CHARS = 64 << 20; // characters of inline data in one ui/download-file
const RENDER_OPTIONS = ["sandboxProxy", "proxiedSandbox", "app", "signal", "hostInfo", "hostContext", "toolInput", "toolResult",
  "onMessage", "onOpenLink", "onModelContext", "onLog", "onToolCall", "onSizeChange", "onTeardownRequest", "onDownloadFile",
  "onSampling", "samplingTools", "displayModes", "onDisplayMode", "maxHeight", "initialHeight", "fitWidth", "title", "teardownTimeout"];

// signalOf is the abort signal of a request of the app: AppBridge hands its
// handlers the request's context, whose mcpReq.signal aborts when the app
// cancels (notifications/cancelled) or the bridge closes.
function signalOf(extra) {
  return extra?.mcpReq?.signal ?? extra?.signal;
}

/**
 * downloadContents checks what an app asks to download (ui/download-file):
 * at most MAX_DOWNLOAD_ITEMS items, each an embedded resource (with a uri
 * and a text or base64 blob) or a resource link (with a uri), with at most
 * MAX_DOWNLOAD_CHARS characters of inline data in all. It returns the
 * items, or throws an McpError (InvalidParams) that the app receives.
 */
function downloadContents(params) {
  const contents = params?.contents;
  const bad = (why) => new McpError(ErrorCode.InvalidParams, `ui/download-file: ${why}`);
  if (!Array.isArray(contents) || contents.length === 0) throw bad("contents must be a non-empty array");
  if (contents.length > MAX_DOWNLOAD_ITEMS) throw bad(`more than ${MAX_DOWNLOAD_ITEMS} items`);
  let chars = 0;
  for (const item of contents) {
    if (item?.type === "resource") {
      const r = item.resource;
      if (typeof r?.uri !== "string") throw bad("an embedded resource without a uri");
      const data = typeof r.text === "string" ? r.text : typeof r.blob === "string" ? r.blob : undefined;
      if (data === undefined) throw bad(`${r.uri}: neither text nor blob`);
      chars += data.length;
    } else if (item?.type === "resource_link") {
      if (typeof item.uri !== "string") throw bad("a resource link without a uri");
    } else {
      throw bad(`an item of type ${JSON.stringify(item?.type)} (want "resource" or "resource_link")`);
    }
  }
  if (chars > MAX_DOWNLOAD_CHARS) throw bad(`more than ${MAX_DOWNLOAD_CHARS} characters of data`);
  return contents;
}

/**
 * SANDBOX_PROXY_HTML is the extension's sandbox proxy page, for hosts that
 * have a second origin (renderApp's sandboxProxy option): serve it there
 * (with Content-Security-Policy: frame-ancestors <your page's origin>). It
 * loads the app the host sends in ui/notifications/sandbox-resource-ready
 * (the HTML with the host's CSP meta already in it) into an inner iframe
 * and relays every other message between the host (the origin named by
 * its ?host= parameter, which must be the embedding page's) and the app.
 */
export const SANDBOX_PROXY_HTML = `<!doctype html>
<html><head><meta charset="utf-8"><title>MCP App sandbox</title>
<style>html,body{margin:0;height:100%;overflow:hidden}iframe{display:block;border:0;width:100%;height:100%}</style>
</head><body><script>
(() => {
  const host = new URLSearchParams(location.search).get("host");
  const embedder = location.ancestorOrigins ? location.ancestorOrigins[0] : document.referrer && new URL(document.referrer).origin;
  if (window.parent === window || !host || host !== embedder) {
    document.body.textContent = "This page only runs as the MCP App sandbox of " + host;
    return;
  }
  let inner = null;
  window.addEventListener("message", (e) => {
    const m = e.data;
    if (e.source === window.parent) {
      if (e.origin !== host || !m || m.jsonrpc !== "2.0") return;
      if (m.method === "ui/notifications/sandbox-resource-ready") {
        if (inner) return;
        const p = m.params || {};
        inner = document.createElement("iframe");
        inner.setAttribute("sandbox", typeof p.sandbox === "string" ? p.sandbox : "allow-scripts");
        const allow = [["camera", "camera"], ["microphone", "microphone"], ["geolocation", "geolocation"], ["clipboardWrite", "clipboard-write"]]
          .filter(([k]) => p.permissions && p.permissions[k]).map(([, v]) => v).join("; ");
        if (allow) inner.setAttribute("allow", allow);
        inner.setAttribute("referrerpolicy", "no-referrer");
        document.body.appendChild(inner);
        inner.srcdoc = String(p.html || "");
        return;
      }
      if (typeof m.method === "string" && m.method.startsWith("ui/notifications/sandbox-")) return;
      if (inner) inner.contentWindow.postMessage(m, "*");
    } else if (inner && e.source === inner.contentWindow) {
      if (m && typeof m.method === "string" && m.method.startsWith("ui/notifications/sandbox-")) return;
      window.parent.postMessage(m, host);
    }
  });
  window.parent.postMessage({ jsonrpc: "2.0", method: "ui/notifications/sandbox-proxy-ready", params: {} }, host);
})();
</script></body></html>
`;

/**
 * appResourceUri returns the ui:// URI a tool's _meta names
 * (_meta.ui.resourceUri, or the deprecated flat _meta["ui/resourceUri"]),
 * or undefined when the tool has no app. A URI that is not ui:// is a
 * TypeError.
 */
export function appResourceUri(tool) {
  const meta = tool?._meta;
  if (!meta || typeof meta !== "object") return undefined;
  const uri = meta.ui?.resourceUri ?? meta["ui/resourceUri"];
  if (uri === undefined) return undefined;
  if (typeof uri !== "string" || !uri.startsWith("ui://")) throw new TypeError(`mcpwasm/apps: tool ${tool.name}: resourceUri ${JSON.stringify(uri)} is not a ui:// URI`);
  return uri;
}

/** toolVisibility returns who may call a tool: ["model", "app"] unless its _meta.ui.visibility says otherwise. */
export function toolVisibility(tool) {
  const v = tool?._meta?.ui?.visibility;
  return Array.isArray(v) ? v.filter((x) => x === "model" || x === "app") : ["model", "app"];
}

// A CSP source list must not let a server smuggle in another directive or
// keyword: only scheme://host[:port][/path] origins (with a leading *. on
// the host) pass; anything else is dropped.
const SOURCE = /^(https?|wss?):\/\/(\*\.)?[a-z0-9.-]+(:(\d{1,5}|\*))?(\/[^\s;,'"]*)?$/i;
function sources(list) {
  if (!Array.isArray(list)) return [];
  return list.filter((s) => typeof s === "string" && SOURCE.test(s));
}

/**
 * appCsp returns the Content-Security-Policy an app runs under, built from
 * the resource's _meta.ui.csp as the extension says: connectDomains →
 * connect-src, resourceDomains → script/style/img/font/media-src,
 * frameDomains → frame-src, baseUriDomains → base-uri; nothing declared →
 * the extension's restrictive default; object-src 'none' always. Entries
 * that are not plain origins are dropped.
 */
export function appCsp(csp) {
  const c = csp && typeof csp === "object" ? csp : {};
  const connect = sources(c.connectDomains);
  const resource = sources(c.resourceDomains);
  const frame = sources(c.frameDomains);
  const base = sources(c.baseUriDomains);
  const join = (first, list) => [first, ...list].join(" ");
  return [
    "default-src 'none'",
    join("script-src 'self' 'unsafe-inline'", resource),
    join("style-src 'self' 'unsafe-inline'", resource),
    join("img-src 'self' data:", resource),
    resource.length ? `font-src ${resource.join(" ")}` : "font-src 'none'",
    join("media-src 'self' data:", resource),
    connect.length ? `connect-src ${connect.join(" ")}` : "connect-src 'none'",
    frame.length ? `frame-src ${frame.join(" ")}` : "frame-src 'none'",
    base.length ? `base-uri ${base.join(" ")}` : "base-uri 'self'",
    "object-src 'none'",
    "form-action 'none'",
  ].join("; ");
}

/** withCsp puts a CSP <meta> first in the document, before anything of the app's can run. */
function withCsp(html, policy) {
  const meta = `<meta http-equiv="Content-Security-Policy" content="${policy.replace(/"/g, "&quot;")}">`;
  const doctype = /^\s*<!doctype[^>]*>/i.exec(html);
  if (doctype) return html.slice(0, doctype[0].length) + meta + html.slice(doctype[0].length);
  return meta + html;
}

function isManager(source) {
  return source && typeof source.client === "function" && typeof source.servers === "function";
}

/**
 * resolveSource turns (source, tool) into the way to reach the tool's
 * server: a Client directly, or, for an McpManager, the client of the
 * server the ManagedTool belongs to (looked up on every request, so a
 * reconnected server is used).
 */
function resolveSource(source, tool) {
  if (isManager(source)) {
    const server = tool.server;
    if (typeof server !== "string") throw new TypeError("mcpwasm/apps: with an McpManager the tool must be one of manager.tools() (it names its server)");
    const name = tool.toolName ?? tool.name;
    const client = () => {
      const c = source.client(server);
      if (!c) throw new McpError(ErrorCode.ConnectionClosed, `mcpwasm/apps: server ${server} is not connected`, undefined, { kind: "closed" });
      return c;
    };
    const tools = async () => source.tools().filter((t) => t.server === server).map((t) => ({ ...t, name: t.toolName }));
    return { client, tools, server, toolName: name };
  }
  if (!source || typeof source.callTool !== "function" || typeof source.readResource !== "function") {
    throw new TypeError("mcpwasm/apps: the source must be a connected Client or an McpManager");
  }
  const tools = async () => {
    const all = [];
    for await (const t of source.tools()) all.push(t);
    return all;
  };
  return { client: () => source, tools, server: undefined, toolName: tool.name };
}

/**
 * readApp reads the app of a tool: its ui:// resource through resources/read
 * on the tool's server. Resolves with {uri, html, csp, permissions, meta}
 * (meta: the content's _meta.ui), or undefined when the tool has no app.
 * Rejects with an McpError when the resource is not an MCP App's HTML.
 */
export async function readApp(source, tool, options = {}) {
  const uri = appResourceUri(tool);
  if (uri === undefined) return undefined;
  const route = resolveSource(source, tool);
  const result = await route.client().readResource({ uri }, { signal: options.signal });
  const content = (result?.contents ?? []).find((c) => c.uri === uri) ?? result?.contents?.[0];
  const bad = (why) => new McpError(ErrorCode.InvalidParams, `mcpwasm/apps: ${uri}: ${why}`, undefined, { kind: "protocol" });
  if (!content) throw bad("resources/read returned no contents");
  const mime = String(content.mimeType ?? "").replace(/\s+/g, "").toLowerCase();
  if (mime !== APP_MIME_TYPE) throw bad(`mimeType ${JSON.stringify(content.mimeType)} is not ${APP_MIME_TYPE}`);
  let html;
  if (typeof content.text === "string") html = content.text;
  else if (typeof content.blob === "string") html = new TextDecoder().decode(Uint8Array.from(atob(content.blob), (ch) => ch.charCodeAt(0)));
  else throw bad("the content has neither text nor blob");
  if (html.length > MAX_HTML) throw bad(`the HTML is longer than ${MAX_HTML} characters`);
  const meta = content._meta?.ui && typeof content._meta.ui === "object" ? content._meta.ui : {};
  return { uri, html, csp: meta.csp, permissions: meta.permissions, meta };
}

/**
 * renderApp renders the app of a tool into container (an element) and
 * connects it to the tool's server. source is a connected Client or an
 * McpManager (then tool is one of manager.tools()). Resolves with an
 * AppView once the iframe is in the document (the app initializes on its
 * own; view.initialized settles when it has). See apps.d.ts for options.
 */
export async function renderApp(source, tool, container, options = {}) {
  options = checkOptions(options, RENDER_OPTIONS, "mcpwasm/apps");
  if (!container || typeof container.appendChild !== "function") throw new TypeError("mcpwasm/apps: container must be an element");
  const displayModes = options.displayModes ?? ["inline"];
  if (!Array.isArray(displayModes) || displayModes.length === 0 || displayModes.some((m) => !DISPLAY_MODES.includes(m))) {
    throw new TypeError(`mcpwasm/apps: displayModes must be a non-empty array of ${DISPLAY_MODES.map((m) => JSON.stringify(m)).join(", ")}`);
  }
  if (displayModes.length > 1 && typeof options.onDisplayMode !== "function") throw new TypeError("mcpwasm/apps: displayModes other than one need onDisplayMode (the page changes the layout)");
  for (const k of ["onDownloadFile", "onSampling", "onDisplayMode"]) {
    if (options[k] !== undefined && typeof options[k] !== "function") throw new TypeError(`mcpwasm/apps: ${k} must be a function`);
  }
  const route = resolveSource(source, tool);
  const app = options.app ?? (await readApp(source, tool, { signal: options.signal }));
  if (!app) throw new TypeError(`mcpwasm/apps: tool ${tool.name} has no app (no _meta.ui.resourceUri)`);
  const doc = container.ownerDocument;
  const iframe = doc.createElement("iframe");
  let proxy;
  if (options.sandboxProxy !== undefined) {
    const here = doc.defaultView?.location;
    proxy = new URL(String(options.sandboxProxy), here?.href);
    // allow-same-origin on the page's own origin would let the app out.
    if (here && proxy.origin === here.origin) throw new TypeError(`mcpwasm/apps: sandboxProxy ${proxy.href} must be on another origin than the page (${here.origin})`);
    if (proxy.protocol !== "https:" && proxy.protocol !== "http:") throw new TypeError(`mcpwasm/apps: sandboxProxy ${proxy.href} is not an http(s) URL`);
    proxy.searchParams.set("host", here.origin);
  }
  // Without a proxy: allow-scripts and nothing else, so the document gets an
  // opaque origin (no access to the page, its storage or cookies) and
  // cannot navigate the top window, open popups, submit forms or download.
  // With the spec's proxy on another origin: allow-scripts
  // allow-same-origin for the proxy, as the spec says (docs/apps.md).
  iframe.setAttribute("sandbox", proxy ? PROXY_SANDBOX : SANDBOX);
  const allow = buildAllowAttribute(app.permissions);
  if (allow) iframe.setAttribute("allow", allow);
  iframe.setAttribute("referrerpolicy", "no-referrer");
  iframe.setAttribute("title", options.title ?? tool.title ?? tool.name);
  iframe.dataset.mcpApp = app.uri;
  const maxHeight = options.maxHeight ?? 2000;
  iframe.style.cssText = `display:block;width:100%;height:${options.initialHeight ?? 150}px;border:${app.meta?.prefersBorder === false ? "0" : "1px solid #8884"};`;
  const policy = appCsp(app.csp);

  const hostInfo = options.hostInfo ?? DEFAULT_HOST_INFO;
  const capabilities = {
    serverTools: {},
    serverResources: {},
    logging: {},
    sandbox: { csp: app.csp ?? {}, permissions: app.permissions ?? {} },
  };
  if (options.onOpenLink !== null) capabilities.openLinks = {};
  if (options.onMessage) capabilities.message = { text: {}, image: {}, audio: {}, resource: {}, resourceLink: {} };
  if (options.onModelContext) capabilities.updateModelContext = { text: {}, image: {}, audio: {}, resource: {}, resourceLink: {}, structuredContent: {} };
  if (options.onDownloadFile) capabilities.downloadFile = {};
  if (options.onSampling) capabilities.sampling = options.samplingTools ? { tools: {} } : {};
  let displayMode = displayModes[0];
  // hostContext is the context the app has been told of: replaced whole on
  // each change (AppBridge keeps the object it is given and sends the
  // members that differ from it).
  let hostContext = {
    theme: globalThis.matchMedia?.("(prefers-color-scheme: dark)").matches ? "dark" : "light",
    platform: "web",
    locale: globalThis.navigator?.language,
    timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
    containerDimensions: { maxHeight },
    toolInfo: { tool: { ...tool, name: route.toolName } },
    ...options.hostContext,
    // the display modes are displayModes' (the first is the initial one)
    displayMode,
    availableDisplayModes: [...displayModes],
  };
  const bridge = new AppBridge(null, hostInfo, capabilities, { hostContext });
  const updateHostContext = (ctx) => {
    hostContext = { ...hostContext, ...ctx };
    bridge.setHostContext(hostContext);
  };

  let toolList; // the server's tools, for the visibility check, listed once
  bridge.oncalltool = async (params, extra) => {
    toolList ??= route.tools().catch((e) => { toolList = undefined; throw e; });
    const target = (await toolList).find((t) => t.name === params.name);
    if (target && !toolVisibility(target).includes("app")) {
      throw new McpError(ErrorCode.InvalidParams, `tool ${params.name} is not callable by apps (visibility ${JSON.stringify(toolVisibility(target))})`);
    }
    if (options.onToolCall) await options.onToolCall(params);
    return route.client().callTool({ name: params.name, arguments: params.arguments ?? {} }, { signal: signalOf(extra) });
  };
  bridge.onreadresource = async (params, extra) => route.client().readResource({ uri: params.uri }, { signal: signalOf(extra) });
  bridge.onlistresources = async (params, extra) => route.client().listResources(params?.cursor ? { cursor: params.cursor } : undefined, { signal: signalOf(extra) });
  bridge.onlistresourcetemplates = async (params, extra) => route.client().listResourceTemplates(params?.cursor ? { cursor: params.cursor } : undefined, { signal: signalOf(extra) });
  bridge.onmessage = async (params) => {
    if (!options.onMessage) return { isError: true };
    const r = await options.onMessage(params);
    return r === false ? { isError: true } : {};
  };
  bridge.onopenlink = async ({ url }) => {
    if (options.onOpenLink === null) return { isError: true };
    let u;
    try {
      u = new URL(url);
    } catch {
      return { isError: true };
    }
    if (u.protocol !== "https:" && u.protocol !== "http:") return { isError: true };
    if (options.onOpenLink) return (await options.onOpenLink(u.href)) === false ? { isError: true } : {};
    const w = globalThis.open?.(u.href, "_blank", "noopener,noreferrer");
    return w === null ? { isError: true } : {};
  };
  bridge.onupdatemodelcontext = async (params) => {
    if (options.onModelContext) await options.onModelContext(params);
    return {};
  };
  // offered returns mode, or throws when it is not among displayModes.
  const offered = (mode) => {
    if (!displayModes.includes(mode)) throw new TypeError(`mcpwasm/apps: display mode ${JSON.stringify(mode)} is not among ${JSON.stringify(displayModes)}`);
    return mode;
  };
  // setDisplayMode records the mode the page shows and tells the app.
  const setDisplayMode = (mode) => {
    if (mode === displayMode) return;
    displayMode = mode;
    updateHostContext({ displayMode: mode });
  };
  bridge.onrequestdisplaymode = async ({ mode }) => {
    // A mode not offered is answered with the current one, as the extension says.
    if (!displayModes.includes(mode) || mode === displayMode || !options.onDisplayMode) return { mode: displayMode };
    const set = await options.onDisplayMode(mode);
    setDisplayMode(displayModes.includes(set) ? set : displayMode);
    return { mode: displayMode };
  };
  bridge.ondownloadfile = async (params, extra) => {
    if (!options.onDownloadFile) return { isError: true };
    const contents = downloadContents(params);
    return (await options.onDownloadFile(contents, { signal: signalOf(extra) })) === false ? { isError: true } : {};
  };
  if (options.onSampling) {
    bridge.oncreatesamplingmessage = async (params, extra) => {
      if (!options.samplingTools && (params?.tools !== undefined || params?.toolChoice !== undefined)) {
        throw new McpError(ErrorCode.InvalidParams, "sampling/createMessage: tools were not offered to apps (samplingTools)");
      }
      return options.onSampling(params, { signal: signalOf(extra) });
    };
  }
  bridge.addEventListener("loggingmessage", (params) => options.onLog?.(params));
  bridge.addEventListener("sizechange", ({ height, width }) => {
    if (typeof height === "number" && height >= 0) iframe.style.height = `${Math.min(Math.ceil(height), maxHeight)}px`;
    if (typeof width === "number" && width > 0 && options.fitWidth) iframe.style.width = `${Math.ceil(width)}px`;
    options.onSizeChange?.({ height, width });
  });
  bridge.addEventListener("requestteardown", () => options.onTeardownRequest?.());

  let resolveInit;
  const initialized = new Promise((r) => { resolveInit = r; });
  bridge.addEventListener("initialized", () => resolveInit());

  const html = withCsp(app.html, policy);
  if (proxy) {
    bridge.addEventListener("sandboxready", () => {
      bridge.sendSandboxResourceReady({ html, sandbox: options.proxiedSandbox ?? PROXY_SANDBOX, csp: app.csp ?? {}, permissions: app.permissions ?? {} });
    });
  }
  container.appendChild(iframe);
  try {
    // Listen before the document loads: the app sends ui/initialize at once.
    await bridge.connect(new PostMessageTransport(iframe.contentWindow, iframe.contentWindow));
  } catch (e) {
    iframe.remove();
    throw e;
  }
  if (proxy) iframe.src = proxy.href;
  else iframe.srcdoc = html;

  let closed = false;
  const afterInit = (fn) => initialized.then(() => (closed ? undefined : fn()));
  const view = {
    iframe,
    bridge,
    uri: app.uri,
    csp: policy,
    initialized,
    sendToolInput: (args) => afterInit(() => bridge.sendToolInput({ arguments: args ?? {} })),
    sendToolInputPartial: (args) => afterInit(() => bridge.sendToolInputPartial({ arguments: args ?? {} })),
    sendToolResult: (result) => afterInit(() => bridge.sendToolResult(result)),
    sendToolCancelled: (reason) => afterInit(() => bridge.sendToolCancelled(reason === undefined ? {} : { reason })),
    setHostContext: (ctx) => {
      if (ctx?.displayMode !== undefined) offered(ctx.displayMode);
      updateHostContext(ctx);
      if (ctx?.displayMode !== undefined) displayMode = ctx.displayMode;
    },
    get displayMode() { return displayMode; },
    setDisplayMode: (mode) => setDisplayMode(offered(mode)),
    async close() {
      if (closed) return;
      closed = true;
      try {
        await Promise.race([
          bridge.teardownResource({}),
          new Promise((r) => setTimeout(r, options.teardownTimeout ?? 500)),
        ]);
      } catch {
        // the app may be gone already
      }
      await bridge.close().catch(() => {});
      iframe.remove();
    },
  };
  if (options.toolInput !== undefined) view.sendToolInput(options.toolInput);
  if (options.toolResult !== undefined) view.sendToolResult(options.toolResult);
  return view;
}

/**
 * callToolWithApp calls a tool through source and renders its app into
 * container, delivering the arguments (ui/notifications/tool-input) and
 * then the result (ui/notifications/tool-result) as the extension says.
 * Resolves with {result, view}; view is undefined when the tool has no app.
 */
export async function callToolWithApp(source, tool, args, container, options = {}) {
  const uri = appResourceUri(tool);
  // A manager takes the namespaced name (tool.name of manager.tools()), a client its own.
  const call = source.callTool({ name: tool.name, arguments: args ?? {} }, { signal: options.signal });
  if (uri === undefined) return { result: await call, view: undefined };
  call.catch(() => {});
  const view = await renderApp(source, tool, container, { ...options, toolInput: args ?? {} });
  try {
    const result = await call;
    view.sendToolResult(result);
    return { result, view };
  } catch (e) {
    view.sendToolCancelled(e?.message ?? "the tool call failed");
    throw e;
  }
}
