// mcpwasm/react: React bindings (React is an optional peer dependency).
// useMcp(url, options) connects an mcpwasm Client and keeps the server's
// tools, resources and prompts in state; <McpApp> renders a tool's MCP App
// through mcpwasm/apps. Plain JS with React.createElement: no JSX, so the
// package ships its source as is.
import React from "react";
import { init, Client, popupAuthorization } from "./index.js";
import { renderApp, appsCapabilities } from "./apps.js";

const { useState, useEffect, useRef, useCallback, useMemo, createElement } = React;

const HANDLERS = ["sampling", "elicitation", "roots", "onLog", "onProgress", "onResourceUpdated", "onElicitationComplete"];

async function listAll(iter, signal) {
  const out = [];
  for await (const x of iter) {
    if (signal.aborted) break;
    out.push(x);
  }
  return out;
}

const LISTS = ["tools", "resources", "prompts"];

// loadLists fetches every page of the lists the server has (a list that
// fails is empty) and resolves with {tools, resources, prompts} as asked.
async function loadLists(client, kinds, signal) {
  const caps = client.serverCapabilities ?? {};
  const next = {};
  await Promise.all(kinds.map(async (k) => {
    next[k] = caps[k] ? await listAll(client[k](), signal).catch(() => []) : [];
  }));
  return next;
}

/**
 * useMcp connects to the MCP server at url while the component is mounted
 * (or when connect() is called, with autoConnect false) and returns the
 * connection's state: state ("idle" | "connecting" | "ready" | "failed" |
 * "closed"; "ready" comes with the first tools, resources and prompts
 * loaded), error, client, info (the SessionInfo), tools, resources,
 * prompts, and callTool, readResource, getPrompt, refresh, connect and
 * disconnect. Options: clientInfo, the Client's handlers (sampling,
 * elicitation, roots, onLog, onProgress, …; the latest ones are always
 * called), clientOptions (every other ClientOptions), connectOptions
 * (ConnectOptions: transport, headers, fetch, era), auth (AuthOptions), or
 * popup ({ redirectUri, … }: OAuth sign-in in a popup through
 * popupAuthorization), initOptions (init()'s), autoConnect (default true),
 * apps (default true: declare MCP Apps support). A sign-in popup needs a
 * user gesture: when the browser blocked it, state is "failed" and calling
 * connect() from a click retries.
 */
export function useMcp(url, options = {}) {
  const opts = useRef(options);
  opts.current = options;
  const [snap, setSnap] = useState({ state: "idle", error: undefined, client: undefined, info: undefined, tools: [], resources: [], prompts: [] });
  const live = useRef({ client: undefined, generation: 0, abort: undefined });

  const refresh = useCallback(async (kinds = LISTS) => {
    const { client, abort } = live.current;
    if (!client) return;
    const next = await loadLists(client, kinds, abort.signal);
    if (!abort.signal.aborted && live.current.client === client) setSnap((s) => ({ ...s, ...next }));
  }, []);

  const disconnect = useCallback(async () => {
    const { client, abort } = live.current;
    live.current = { client: undefined, generation: live.current.generation + 1, abort: undefined };
    abort?.abort();
    setSnap((s) => ({ ...s, state: "closed", client: undefined }));
    await client?.close().catch(() => {});
  }, []);

  const connect = useCallback(async () => {
    const old = live.current;
    old.abort?.abort();
    old.client?.close().catch(() => {});
    const generation = old.generation + 1;
    const abort = new AbortController();
    live.current = { client: undefined, generation, abort };
    const current = () => live.current.generation === generation;
    setSnap({ state: "connecting", error: undefined, client: undefined, info: undefined, tools: [], resources: [], prompts: [] });
    try {
      const o = opts.current;
      await init(o.initOptions);
      const handlers = {};
      for (const h of HANDLERS) {
        if (o[h] === undefined) continue;
        handlers[h] = h === "roots" && Array.isArray(o.roots) ? o.roots : (...args) => opts.current[h](...args);
      }
      const capabilities = o.apps === false ? o.clientOptions?.capabilities : { ...o.clientOptions?.capabilities, extensions: { ...o.clientOptions?.capabilities?.extensions, ...appsCapabilities.extensions } };
      const client = new Client(o.clientInfo ?? { name: "mcpwasm-react", version: "0.1.0" }, {
        ...o.clientOptions,
        ...handlers,
        ...(capabilities ? { capabilities } : {}),
        onToolsListChanged: () => { if (current()) refresh(["tools"]); },
        onResourcesListChanged: () => { if (current()) refresh(["resources"]); },
        onPromptsListChanged: () => { if (current()) refresh(["prompts"]); },
      });
      let auth = o.auth;
      if (o.popup && !auth?.onAuthorizationUrl) auth = { ...auth, onAuthorizationUrl: popupAuthorization(o.popup) };
      const info = await client.connect(url, { ...o.connectOptions, ...(auth ? { auth } : {}), signal: abort.signal });
      if (!current()) { client.close().catch(() => {}); return; }
      // "ready" comes with the first lists: a render that sees ready sees the tools.
      const lists = await loadLists(client, LISTS, abort.signal);
      if (!current()) { client.close().catch(() => {}); return; }
      live.current.client = client;
      setSnap((s) => ({ ...s, state: "ready", client, info, ...lists }));
      client.closed.then((err) => {
        if (!current()) return;
        live.current.client = undefined;
        setSnap((s) => ({ ...s, state: err ? "failed" : "closed", error: err, client: undefined }));
      });
    } catch (e) {
      if (current()) setSnap((s) => ({ ...s, state: "failed", error: e }));
    }
  }, [url, refresh]);

  useEffect(() => {
    if (opts.current.autoConnect === false) return undefined;
    connect();
    return () => { disconnect(); };
  }, [connect, disconnect]);

  const need = () => {
    const c = live.current.client;
    if (!c) throw new Error("mcpwasm/react: not connected");
    return c;
  };
  const callTool = useCallback((params, o) => need().callTool(params, o), []);
  const readResource = useCallback((params, o) => need().readResource(params, o), []);
  const getPrompt = useCallback((params, o) => need().getPrompt(params, o), []);

  return useMemo(() => ({ ...snap, callTool, readResource, getPrompt, refresh, connect, disconnect }),
    [snap, callTool, readResource, getPrompt, refresh, connect, disconnect]);
}

/**
 * McpApp renders a tool's MCP App (mcpwasm/apps renderApp) in a div:
 * props source (a connected Client, or an McpManager with one of its
 * tools), tool, toolInputPartial (the arguments while the model still
 * streams them; sent while toolInput is undefined), toolInput and
 * toolResult (delivered to the app when they change), the host callbacks of RenderAppOptions (onMessage, onOpenLink,
 * onLog, onToolCall, onModelContext, onSizeChange, onTeardownRequest,
 * onDownloadFile, onSampling, onDisplayMode; the latest ones are called),
 * samplingTools and displayModes (read at mount), hostContext, maxHeight,
 * onError, and className
 * / style for the div. The app is torn down on unmount or when source or
 * tool change.
 */
export function McpApp(props) {
  const ref = useRef(null);
  const latest = useRef(props);
  latest.current = props;
  const viewRef = useRef(undefined);
  const sentPartial = useRef(undefined);
  const sentInput = useRef(undefined);
  const sentResult = useRef(undefined);
  const { source, tool, toolInputPartial, toolInput, toolResult } = props;

  useEffect(() => {
    if (!source || !tool || !ref.current) return undefined;
    let cancelled = false;
    const call = (name) => (...args) => latest.current[name]?.(...args);
    const p = renderApp(source, tool, ref.current, {
      hostContext: latest.current.hostContext,
      maxHeight: latest.current.maxHeight,
      hostInfo: latest.current.hostInfo,
      onMessage: latest.current.onMessage ? call("onMessage") : undefined,
      onOpenLink: latest.current.onOpenLink === null ? null : latest.current.onOpenLink ? call("onOpenLink") : undefined,
      onModelContext: latest.current.onModelContext ? call("onModelContext") : undefined,
      onLog: call("onLog"),
      onToolCall: call("onToolCall"),
      onSizeChange: call("onSizeChange"),
      onTeardownRequest: call("onTeardownRequest"),
      onDownloadFile: latest.current.onDownloadFile ? call("onDownloadFile") : undefined,
      onSampling: latest.current.onSampling ? call("onSampling") : undefined,
      samplingTools: latest.current.samplingTools,
      displayModes: latest.current.displayModes,
      onDisplayMode: latest.current.onDisplayMode ? call("onDisplayMode") : undefined,
    });
    p.then((view) => {
      if (cancelled) { view.close(); return; }
      viewRef.current = view;
      const { toolInputPartial: pi, toolInput: i, toolResult: r } = latest.current;
      sentPartial.current = pi;
      sentInput.current = i;
      sentResult.current = r;
      if (i === undefined && pi !== undefined) view.sendToolInputPartial(pi);
      if (i !== undefined) view.sendToolInput(i);
      if (r !== undefined) view.sendToolResult(r);
      latest.current.onReady?.(view);
    }, (e) => { if (!cancelled) latest.current.onError?.(e); });
    return () => {
      cancelled = true;
      const view = viewRef.current;
      viewRef.current = undefined;
      view?.close();
    };
  }, [source, tool]);

  useEffect(() => {
    const view = viewRef.current;
    if (view && toolInputPartial !== undefined && sentPartial.current !== toolInputPartial && latest.current.toolInput === undefined) {
      sentPartial.current = toolInputPartial;
      view.sendToolInputPartial(toolInputPartial);
    }
  }, [toolInputPartial]);
  useEffect(() => {
    const view = viewRef.current;
    if (view && toolInput !== undefined && sentInput.current !== toolInput) {
      sentInput.current = toolInput;
      view.sendToolInput(toolInput);
    }
  }, [toolInput]);
  useEffect(() => {
    const view = viewRef.current;
    if (view && toolResult !== undefined && sentResult.current !== toolResult) {
      sentResult.current = toolResult;
      view.sendToolResult(toolResult);
    }
  }, [toolResult]);

  return createElement("div", { ref, className: props.className, style: props.style, "data-mcp-app-host": "" });
}
