// mcpwasm example web app: a browser chat client for several MCP servers at
// once, using only the public API of the mcpwasm package (init, the
// McpManager over many servers and its clients, McpError, the model-tool
// helpers toOpenAIChatTools and toOpenAIChatContent).
// With an OpenAI-compatible endpoint under Settings the conversation is a
// model loop over the tools of every connected server; without one, the
// user picks tools on the left.

import { init, McpError, McpManager, popupAuthorization, localStorageStore, toOpenAIChatTools, toOpenAIChatContent } from "/mcpwasm/src/index.js";
import { $, h, append, clear, json, pre, time, uid } from "./dom.js";
import { schemaForm } from "./schema-form.js";
import { renderBlocks, renderResourceContents, renderToolResult } from "./content.js";
import { elicit, sample } from "./dialogs.js";
import { track, resume } from "./tasks.js";
import { modelLoop, MAX_ROUNDS } from "./chat.js";
import { showApp, appResourceUri, appsAvailable, APPS_CAPABILITIES } from "./apps-inline.js";

const CLIENT_INFO = { name: "mcpwasm-example-web", version: "0.2.0", title: "mcpwasm example web app" };
const MAX_LOG = 400;
const NAME_RE = /^[A-Za-z0-9-]+(?:_[A-Za-z0-9-]+)*$/; // no "__": that separates server and tool

const state = {
  manager: null,
  configs: new Map(), // server name → its config (url, transport, …)
  roots: [{ uri: "file:///home/user/projects/demo", name: "demo project" }],
  subscriptions: new Map(), // uri → server
  snapshots: new Map(), // "server:kind" → names, to tell a real list change from the first load
  reported: new Set(), // servers whose current outage is already in the conversation
  llm: { url: "", model: "", key: "" },
  logLevel: "info",
  selected: null, // {kind, key}
  filter: "",
  history: [], // the model conversation (OpenAI chat messages)
  turn: null, // AbortController of the running model turn
};

// ------------------------------------------------------------ conversation

const conv = $("conversation");

/**
 * say appends a conversation entry: kind me | server | ask | model | event |
 * error. title is a string, or {who, what}. A question (ask) goes where it
 * happens, and the calls still waiting for their result move below it: a
 * result always comes after the questions that led to it.
 */
function say(kind, title, ...body) {
  const t = typeof title === "object" && title ? title : { what: title };
  const who = t.who ?? { me: "You", server: "Server", ask: "Server → you", model: "Model", event: "", error: "Error" }[kind] ?? "";
  const li = h("li", { class: ["msg", `msg-${kind}`] },
    kind === "event" ? null : h("div", { class: "meta" }, h("span", { class: "who" }, who), t.what ? [" · ", h("span", { class: "what" }, t.what)] : null, h("time", {}, time())),
    h("div", { class: "bubble" }, kind === "event" ? [h("time", {}, time()), " "] : null, body));
  conv.append(li);
  if (kind === "ask") for (const p of [...conv.querySelectorAll(":scope > li[data-state=pending]")]) conv.append(p);
  return li;
}

// The conversation follows new content (entries, results filling in) unless
// the user scrolled up to read something.
let follow = true;
conv.addEventListener("scroll", () => { follow = conv.scrollHeight - conv.scrollTop - conv.clientHeight < 120; });
new MutationObserver(() => { if (follow) conv.scrollTop = conv.scrollHeight; }).observe(conv, { childList: true, subtree: true });

/** event adds a one-line system entry. */
function event(text, cls) {
  const li = say("event", "", text);
  if (cls) li.classList.add(cls);
  return li;
}

/** argsView shows the arguments of a request. */
function argsView(args) {
  return args && Object.keys(args).length ? pre(json(args), "args") : h("span", { class: "muted" }, "(no arguments)");
}

/**
 * errorView describes an error (McpError or other) for a bubble. reachable:
 * the server answered before (a tool of a connected server), so a network
 * error means it went away rather than a CORS refusal (a page cannot tell
 * the two apart).
 */
function errorView(e, { reachable = false } = {}) {
  if (e instanceof McpError && e.kind === "abort") e = e.cause ?? e;
  if (e instanceof McpError) {
    const hint = reachable && e.kind === "transport"
      ? h("p", { class: "hint" }, "This server answered before: a network error now means it is down or unreachable. The page retries in the background (see its row under Servers).")
      : e.kind === "cors" || (e.kind === "transport" && /CORS/i.test(e.message))
      ? h("p", { class: "hint" }, "Browsers only let a page talk to a server on another origin when the server answers CORS: it must allow the MCP request headers and expose Mcp-Session-Id, WWW-Authenticate and MCP-Protocol-Version (see the README, “CORS”).")
      : e.kind === "http" && e.status === 401
        ? h("p", { class: "hint" }, "The server wants authorization: add an Authorization header or turn on OAuth under “Headers & auth”.")
        : null;
    return h("div", { class: "error-view" },
      h("div", { class: "error-title" }, `McpError · ${e.kind} · code ${e.code}${e.status ? ` · HTTP ${e.status}` : ""}`),
      h("div", { class: "error-message" }, e.message),
      e.data !== undefined ? h("details", {}, h("summary", {}, "data"), pre(json(e.data))) : null,
      hint);
  }
  if (e && e.name === "AbortError") return h("div", { class: "error-view" }, h("div", { class: "error-title" }, "Cancelled"), h("div", {}, String(e.message || "")));
  return h("div", { class: "error-view" }, h("div", { class: "error-title" }, e?.name || "Error"), h("div", { class: "error-message" }, String(e?.message ?? e)));
}

// ------------------------------------------------------------ logs & wire

function pushLog(listId, countId, node) {
  const list = $(listId);
  list.append(node);
  while (list.childElementCount > MAX_LOG) list.firstElementChild.remove();
  list.scrollTop = list.scrollHeight;
  $(countId).textContent = String(list.childElementCount);
}

function onLog(m, server) {
  const data = typeof m.data === "string" ? m.data : json(m.data);
  pushLog("log-list", "count-log", h("li", { class: ["log", `lvl-${m.level}`], dataset: { level: String(m.level), server: server ?? "" } },
    h("time", {}, time()), h("span", { class: "lvl" }, String(m.level)), server ? h("span", { class: "log-server" }, server) : null,
    m.logger ? h("span", { class: "logger" }, String(m.logger)) : null,
    h("span", { class: "log-data" }, data)));
}

function warn(text) {
  pushLog("log-list", "count-log", h("li", { class: "log lvl-client" }, h("time", {}, time()), h("span", { class: "lvl" }, "client"), h("span", { class: "log-data" }, text)));
}

function onWire(direction, msg) {
  let what;
  if (msg.method) what = `${msg.method}${msg.id !== undefined ? ` #${msg.id}` : ""}`;
  else if (msg.error) what = `error #${msg.id} (${msg.error.code})`;
  else what = `result #${msg.id}${msg.result?.resultType && msg.result.resultType !== "complete" ? ` (${msg.result.resultType})` : ""}`;
  pushLog("wire-list", "count-wire", h("li", { class: ["wire-msg", direction === "out" ? "out" : "in"] },
    h("details", {}, h("summary", {}, h("time", {}, time()), h("span", { class: "dir" }, direction === "out" ? "→" : "←"), " ", what), pre(json(msg)))));
  // Make the server's input requests visible in the conversation.
  if (direction === "in" && msg.result?.resultType === "input_required" && msg.result.inputRequests) {
    const asks = Object.values(msg.result.inputRequests).map((r) => r?.method).filter(Boolean);
    event(`A server needs input before it can answer (input_required): ${asks.join(", ")} — answering, then retrying the request.`, "mrtr");
  }
}

// ------------------------------------------------------------ the manager

let initPromise = null;
function ensureInit() {
  initPromise ??= init().catch((e) => {
    initPromise = null;
    throw e;
  });
  return initPromise;
}

const AUTH_PREFIX = "mcpwasm-example:auth:";

// authOptions is the connect option "auth" of the page: a popup sign-in
// (full-page redirect when blocked), with what it needs kept in
// localStorage; callbackUrl finishes a sign-in that took the whole page.
function authOptions(callbackUrl) {
  const auth = {
    onAuthorizationUrl: popupAuthorization({ redirectUri: `${location.origin}/oauth-callback.html` }),
    storage: localStorageStore(AUTH_PREFIX),
    clientName: "mcpwasm example web app",
    onLog: (line) => warn(`oauth: ${line}`),
  };
  if (callbackUrl) auth.callbackUrl = callbackUrl;
  return auth;
}

/**
 * makeManager builds the manager whose handlers drive the page; apps: the
 * page can render MCP Apps, and tells the servers so.
 */
function makeManager({ apps = false } = {}) {
  const m = new McpManager({ mcpServers: {} }, {
    clientInfo: CLIENT_INFO,
    healthCheck: 15000, // ping every 15 s, so a server that went away shows up as such
    reconnect: { delay: 500, maxDelay: 8000, attempts: 5 }, // then "failed": remove it or add it again
    sampling: async (params, { signal, server }) => {
      const li = say("ask", { who: `${server} → you`, what: "sampling/createMessage" }, h("div", {}, "Asks for a model reply to:"),
        h("div", { class: "quote" }, ...(params.messages || []).flatMap((x) => renderBlocks(x.content))));
      li.dataset.server = server;
      try {
        const r = await sample(params, { signal, serverName: server, llm: state.llm });
        li.querySelector(".bubble").append(h("div", { class: "answer" }, h("strong", {}, `You approved (${r.model}): `), r.content.text));
        li.dataset.outcome = "approved";
        return r;
      } catch (e) {
        li.querySelector(".bubble").append(h("div", { class: "answer declined" }, signal?.aborted ? "The server withdrew the request." : "You rejected it."));
        li.dataset.outcome = "rejected";
        throw e;
      }
    },
    elicitation: async (params, { signal, server }) => {
      const url = params.mode === "url";
      const li = say("ask", { who: `${server} → you`, what: url ? "elicitation/create (URL)" : "elicitation/create" }, h("div", { class: "quote" }, String(params.message ?? "")),
        url ? h("code", { class: "full-url" }, String(params.url ?? "")) : null);
      li.dataset.server = server;
      try {
        const r = await elicit(params, { signal, serverName: server, onEvent: (t) => event(t) });
        li.querySelector(".bubble").append(h("div", { class: ["answer", r.action !== "accept" && "declined"] },
          h("strong", {}, `You chose ${r.action}`), r.content ? [": ", h("code", {}, JSON.stringify(r.content))] : null));
        li.dataset.outcome = r.action;
        return r;
      } catch (e) {
        li.querySelector(".bubble").append(h("div", { class: "answer declined" }, "The server withdrew the request."));
        throw e;
      }
    },
    roots: ({ server } = {}) => {
      event(`${server ?? "A server"} asked for your roots (roots/list): ${state.roots.map((r) => r.uri).join(", ") || "none"}.`, "roots-asked");
      return { roots: state.roots };
    },
    onLog: (msg, { server } = {}) => onLog(msg, server),
    clientOptions: {
      requestTimeout: 10 * 60 * 1000, // a person may take a while to answer a dialog
      logLevel: state.logLevel,
      samplingTools: true,
      elicitationModes: ["form", "url"],
      ...(apps ? { capabilities: APPS_CAPABILITIES } : {}),
      onMessage: onWire,
      onWarning: (w) => warn(w),
      onResourceUpdated: (n) => resourceUpdated(n.uri),
      onElicitationComplete: (n) => event(`The server says the URL elicitation ${n.elicitationId} is complete.`),
    },
  });
  m.addEventListener("status", (e) => onStatus(e.detail));
  m.addEventListener("change", (e) => onChange(e.detail));
  return m;
}

function onStatus(s) {
  renderServers();
  renderLists();
  if (s.status === "connected") {
    state.reported.delete(s.name);
    const c = s.client ?? state.manager.client(s.name);
    const si = s.serverInfo ?? c?.serverInfo ?? {};
    const li = event(`${s.name}: connected to ${si.title || si.name || "the server"} — ${c?.era ?? "?"} era, protocol ${c?.protocolVersion ?? "?"}.`, "server-connected");
    li.dataset.server = s.name;
    for (const kind of ["tools", "resources", "prompts"]) snapshot(s.name, kind);
    const url = state.configs.get(s.name)?.url;
    if (c && url) {
      resume(c, url, (tool) => taskCallbacks(s.name, tool)).then((n) => {
        if (n) event(`${s.name}: resumed ${n} running task${n > 1 ? "s" : ""} from before the reload.`);
      }, () => {});
    }
  } else if ((s.status === "failed" || s.status === "reconnecting") && s.error) {
    // One error entry per outage (the manager retries with backoff, and
    // each attempt's error comes with a status event), then a line when it
    // gives up.
    if (!state.reported.has(s.name)) {
      state.reported.add(s.name);
      const li = say("error", { who: s.name, what: s.status === "failed" ? "connection" : "connection · retrying" }, errorView(s.error));
      li.dataset.server = s.name;
    } else if (s.status === "failed") {
      event(`${s.name}: gave up reconnecting (${s.error.message ?? s.error}).`, "server-failed").dataset.server = s.name;
    }
  } else if (s.status === "closed") {
    state.reported.delete(s.name);
    for (const k of [...state.snapshots.keys()]) if (k.startsWith(`${s.name}:`)) state.snapshots.delete(k);
  }
}

// snapshot records the names of a server's tools, resources or prompts and
// returns what they were before.
function snapshot(server, kind) {
  const names = { tools: () => state.manager.tools(), resources: () => state.manager.resources(), prompts: () => state.manager.prompts() }[kind]()
    .filter((x) => x.server === server).map((x) => x.name ?? x.uri).sort().join("\n");
  const key = `${server}:${kind}`;
  const before = state.snapshots.get(key);
  state.snapshots.set(key, names);
  return [before, names];
}

function onChange({ server, kind }) {
  if (kind === "tools" || kind === "resources" || kind === "prompts") {
    // A change of a list seen before (not the first load) is worth saying.
    const [before, names] = snapshot(server, kind);
    if (before && before !== names) {
      event(`${server}: its ${kind} changed (list_changed) — the list is up to date.`, "list-changed").dataset.server = server;
      const tab = $(`tab-${kind}`);
      tab.classList.remove("flash");
      void tab.offsetWidth;
      tab.classList.add("flash");
    }
  } else if (kind === "servers") {
    // A server came or went: the lists it brought are its first ones.
    for (const s of state.manager.servers()) {
      if (s.status !== "connected") continue;
      for (const k of ["tools", "resources", "prompts"]) if (!state.snapshots.get(`${s.name}:${k}`)) snapshot(s.name, k);
    }
  }
  renderServers();
  renderLists();
}

/** serverName derives a server name from its URL when the user gave none. */
function deriveName(url) {
  let u;
  try { u = new URL(url); } catch { return "server"; }
  if (u.origin === location.origin) return "demo";
  const seg = u.pathname.split("/").filter((p) => p && !/^(mcp|sse|v\d+)$/i.test(p)).pop();
  const base = (seg || u.hostname.split(".")[0] || "server").replace(/[^A-Za-z0-9-]+/g, "-").replace(/^-+|-+$/g, "") || "server";
  let name = base;
  for (let i = 2; state.configs.has(name); i++) name = `${base}-${i}`;
  return name;
}

function readHeaders() {
  const headers = {};
  for (const row of $("headers-list").children) {
    const [name, value] = row.querySelectorAll("input");
    if (name.value.trim()) headers[name.value.trim()] = value.value;
  }
  return headers;
}

/** addServer adds (and connects) a server; errors show in the conversation. */
async function addServer(name, config) {
  state.configs.set(name, config);
  renderServers();
  try {
    await state.manager.add(name, config);
  } catch (e) {
    say("error", { who: name, what: "add" }, errorView(e)).dataset.server = name;
  }
}

async function connectForm(callbackUrl) {
  const url = $("server-url").value.trim();
  if (!url) return;
  const headers = readHeaders();
  const bad = Object.keys(headers).find((n) => !/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(n));
  if (bad) {
    say("error", "connect", errorView(new Error(`“${bad}” is not a valid header name`)));
    return;
  }
  const name = $("server-name").value.trim() || deriveName(url);
  if (!NAME_RE.test(name) || name.length > 32) {
    say("error", "connect", errorView(new Error(`“${name}” is not a usable server name: letters, digits, - and single _ only, at most 32 characters`)));
    return;
  }
  if (state.manager?.server(name)) {
    say("error", "connect", errorView(new Error(`a server named “${name}” is already there: remove it first, or give this one another name`)));
    return;
  }
  const config = { url, transport: $("transport").value, headers };
  if ($("oauth-on").checked || callbackUrl) {
    config.auth = authOptions(callbackUrl);
    localStorage.setItem(`${AUTH_PREFIX}last-server`, JSON.stringify({ name, url, transport: config.transport }));
  }
  $("server-name").value = "";
  const btn = $("connect-btn");
  btn.disabled = true;
  btn.textContent = "Connecting…";
  try {
    await ensureInit();
    await addServer(name, config);
  } finally {
    btn.disabled = false;
    btn.textContent = "Connect";
  }
}

async function removeServer(name) {
  state.configs.delete(name);
  for (const [uri, s] of [...state.subscriptions]) if (s === name) state.subscriptions.delete(uri);
  try {
    await state.manager.remove(name);
  } catch (e) {
    warn(`remove ${name}: ${e.message}`);
  }
  event(`${name}: removed.`).dataset.server = name;
  if (state.selected?.server === name) showInspector(null);
  renderServers();
  renderLists();
}

// ------------------------------------------------------------ servers card

const STATUS_TEXT = { connecting: "connecting…", connected: "connected", reconnecting: "reconnecting…", failed: "failed", closed: "closed" };

function renderServers() {
  const list = clear($("servers-list"));
  const servers = state.manager ? state.manager.servers() : [];
  for (const s of servers) {
    const c = s.status === "connected" ? (s.client ?? state.manager.client(s.name)) : null;
    const tools = state.manager.tools().filter((t) => t.server === s.name).length;
    list.append(h("li", { class: "server-row", dataset: { server: s.name, status: s.status } },
      h("div", { class: "server-line" },
        h("span", { class: "dot", "aria-hidden": "true" }),
        h("button", { type: "button", class: "linkish server-label", title: "Details", onclick: () => showServer(s.name) }, s.name),
        h("span", { class: ["server-status", s.status === "connected" && "visually-hidden"] }, STATUS_TEXT[s.status] ?? s.status),
        c ? h("span", { class: ["badge", `era-${c.era}`] }, c.era) : null,
        h("span", { class: "spacer" }),
        c ? h("button", { type: "button", class: "ghost small", title: `Ping ${s.name}`, onclick: () => ping(s.name) }, "Ping") : null,
        h("button", { type: "button", class: "ghost small remove", "aria-label": `Remove ${s.name}`, title: `Remove ${s.name}`, onclick: () => removeServer(s.name) }, "✕")),
      h("div", { class: "server-sub mono small muted" }, h("span", { class: "server-url" }, state.configs.get(s.name)?.url ?? ""),
        c ? h("span", { class: "tool-count" }, `${tools} tool${tools === 1 ? "" : "s"}`) : null),
      s.status !== "connected" && s.error ? h("div", { class: "server-error small", title: String(s.error.message ?? s.error) }, String(s.error.message ?? s.error)) : null));
  }
  if (!servers.length) list.append(h("li", { class: "muted small empty" }, "No servers. Add one above (the demo server: ", h("button", { type: "button", class: "linkish", onclick: () => addDemo() }, "add it back"), ")."));
  const up = servers.filter((s) => s.status === "connected").length;
  $("status-text").textContent = servers.length ? `${up} of ${servers.length} server${servers.length === 1 ? "" : "s"} connected` : "No servers";
  $("status").dataset.state = !servers.length ? "idle" : up === servers.length ? "connected" : up ? "partial"
    : servers.some((s) => (s.status === "connecting" || s.status === "reconnecting") && !s.error) ? "connecting" : "error";
}

function addDemo() {
  ensureInit().then(() => addServer("demo", { url: `${location.origin}/mcp` }));
}

function showServer(name) {
  const s = state.manager.server(name);
  const c = state.manager.client(name);
  state.selected = { kind: "server", key: name, server: name };
  if (!s) return showInspector(null);
  const si = s.serverInfo ?? c?.serverInfo ?? {};
  const caps = c?.serverCapabilities || {};
  const capList = [];
  for (const [k, v] of Object.entries(caps)) {
    if (!v || typeof v !== "object") continue;
    const flags = Object.entries(v).filter(([, x]) => x === true).map(([f]) => f);
    capList.push(h("span", { class: "chip cap", title: flags.join(", ") }, k, flags.length ? h("small", {}, ` ${flags.join(" · ")}`) : null));
  }
  showInspector(
    h("div", { class: "insp-head" }, h("span", { class: "kind" }, "server"), h("h3", { class: "server-name" }, name),
      si.name ? h("span", { class: "muted" }, `${si.title || si.name}${si.version ? ` v${si.version}` : ""}`) : null),
    h("code", { class: "uri block" }, state.configs.get(name)?.url ?? ""),
    h("div", { class: "badges" },
      h("span", { class: "badge" }, STATUS_TEXT[s.status] ?? s.status),
      c ? h("span", { class: ["badge", `era-${c.era}`], id: "era-badge" }, c.era) : null,
      c ? h("span", { class: "badge", id: "version-badge" }, c.protocolVersion) : null,
      c?.sessionId ? h("span", { class: "badge subtle", title: `Mcp-Session-Id ${c.sessionId}` }, "session") : null),
    si.description ? h("p", { class: "muted" }, String(si.description)) : null,
    h("div", { class: "caps" }, capList),
    c?.instructions ? h("div", { class: "instructions" }, h("div", { class: "muted small" }, "Instructions"), h("blockquote", { id: "instructions" }, String(c.instructions))) : null,
    s.error ? errorView(s.error) : null,
    h("div", { class: "row" },
      c ? h("button", { type: "button", class: "ghost small", onclick: () => ping(name) }, "Ping") : null,
      h("button", { type: "button", class: "ghost small", onclick: () => removeServer(name) }, "Remove")));
}

async function ping(name) {
  const c = state.manager.client(name);
  if (!c) return;
  const t0 = performance.now();
  try {
    await c.ping();
    event(`${name}: ping answered in ${Math.round(performance.now() - t0)} ms.`);
  } catch (e) {
    say("error", { who: name, what: "ping" }, errorView(e));
  }
}

// ------------------------------------------------------------ lists

const lists = {
  tools: { noun: "tools", items: () => state.manager?.tools() ?? [], key: (x) => x.name, label: (x) => [x.title || x.toolName, x.description], show: showTool },
  resources: { noun: "resources", items: () => state.manager?.resources() ?? [], key: (x) => x.uri, label: (x) => [x.title || x.name, x.uri], show: showResource },
  templates: { noun: "templates", items: () => state.manager?.resourceTemplates() ?? [], key: (x) => x.uriTemplate, label: (x) => [x.title || x.name, x.uriTemplate], show: showTemplate },
  prompts: { noun: "prompts", items: () => state.manager?.prompts() ?? [], key: (x) => x.name, label: (x) => [x.title || x.promptName, x.description], show: showPrompt },
};

function renderLists() {
  for (const k of Object.keys(lists)) renderList(k);
}

function matches(x, label, key, q) {
  return !q || `${label[0] ?? ""} ${label[1] ?? ""} ${key} ${x.server}`.toLowerCase().includes(q);
}

function renderList(kind) {
  const l = lists[kind];
  const panel = clear($(`panel-${kind}`));
  const all = l.items();
  const q = state.filter.trim().toLowerCase();
  const shown = all.filter((x) => matches(x, l.label(x), l.key(x), q));
  // Groups in the order of the servers card (the manager's own order of
  // tools may differ: it sorts by server name to settle collisions).
  const groups = new Map((state.manager?.servers() ?? []).map((s) => [s.name, []]));
  for (const x of shown) {
    if (!groups.has(x.server)) groups.set(x.server, []);
    groups.get(x.server).push(x);
  }
  for (const [server, items] of groups) {
    if (!items.length) continue;
    const ul = h("ul", { class: "items", "aria-label": `${l.noun} of ${server}` });
    for (const x of items) {
      const key = l.key(x);
      const [main, sub] = l.label(x);
      const selected = state.selected?.kind === kind && state.selected.key === key && state.selected.server === x.server;
      ul.append(h("li", {}, h("button", { type: "button", class: ["item", selected && "selected"], dataset: { key, server: x.server }, "aria-pressed": selected ? "true" : "false", title: sub ? String(sub) : undefined,
        onclick: () => { state.selected = { kind, key, server: x.server }; renderList(kind); l.show(x); } },
      h("span", { class: "item-main" }, String(main ?? key)), sub ? h("span", { class: "item-sub" }, String(sub)) : null,
      kind === "tools" && appResourceUri(x) ? h("span", { class: "chip small", title: "has an MCP App" }, "app") : null,
      kind === "resources" && state.subscriptions.get(x.uri) === x.server ? h("span", { class: "chip small", title: "subscribed" }, "subscribed") : null)));
    }
    panel.append(h("section", { class: "group", dataset: { server } },
      h("h3", { class: "group-head" }, h("span", {}, server), h("span", { class: "count" }, String(items.length))), ul));
  }
  if (!shown.length) {
    panel.append(h("p", { class: "muted small empty" }, all.length ? `No ${l.noun} match “${state.filter.trim()}”.` : `No connected server offers ${l.noun}.`));
  }
  $(`count-${kind}`).textContent = q ? `${shown.length}/${all.length}` : String(all.length);
}

function resourceUpdated(uri) {
  const li = event(`Resource updated: ${uri}`, "resource-updated");
  const server = state.subscriptions.get(uri);
  li.querySelector(".bubble").append(" ", h("button", { type: "button", class: "linkish", onclick: () => readResource(uri, server) }, "read it again"));
}

// ------------------------------------------------------------ inspector

function showInspector(...content) {
  const body = clear($("inspector-body"));
  if (content.length === 0 || content[0] === null) {
    body.append(h("p", { class: "muted" }, "Select a server, tool, resource, template or prompt."));
    return;
  }
  append(body, content);
}

function annotationBadges(a = {}) {
  const out = [];
  if (a.readOnlyHint) out.push(h("span", { class: "chip ok" }, "read-only"));
  if (a.destructiveHint) out.push(h("span", { class: "chip danger" }, "destructive"));
  if (a.idempotentHint) out.push(h("span", { class: "chip" }, "idempotent"));
  if (a.openWorldHint) out.push(h("span", { class: "chip" }, "open world"));
  return out;
}

function serverChip(server) {
  return h("span", { class: "chip server-chip", title: "server" }, server);
}

function showTool(tool) {
  const form = schemaForm(tool.inputSchema, { idPrefix: uid("arg") });
  const rawBox = h("textarea", { class: "json", rows: 5, spellcheck: "false", id: "tool-raw-args", "aria-label": "Arguments as JSON" });
  const raw = h("details", { class: "raw-args", ontoggle: () => {
    if (raw.open) {
      const r = form.read();
      rawBox.value = json(r.ok ? r.value : {});
    }
  } }, h("summary", {}, "Arguments as JSON"), h("p", { class: "note" }, "When this is open, these arguments are sent as written."), rawBox);
  const errors = h("div", { class: "form-errors", role: "alert" });
  const f = h("form", { class: "tool-form", "aria-label": `Call ${tool.name}`, novalidate: true, onsubmit: (e) => {
    e.preventDefault();
    let args;
    if (raw.open) {
      try {
        args = JSON.parse(rawBox.value || "{}");
      } catch (err) {
        errors.textContent = `Arguments are not valid JSON: ${err.message}`;
        return;
      }
    } else {
      const r = form.read();
      if (!r.ok) {
        errors.textContent = `Please fix: ${r.errors.join("; ")}`;
        return;
      }
      args = r.value;
    }
    errors.textContent = "";
    if ($("as-task")?.checked) callToolAsTask(tool, args);
    else callTool(tool, args);
  } },
  form.empty ? h("p", { class: "muted" }, "This tool takes no arguments.") : form.element,
  raw, errors,
  h("label", { class: "check small" }, h("input", { type: "checkbox", id: "as-task", checked: tool.execution?.taskSupport === "required" }), " Run as a task",
    tool.execution?.taskSupport ? h("span", { class: "muted" }, ` (taskSupport: ${tool.execution.taskSupport})`) : null),
  h("div", { class: "row" }, h("button", { type: "submit", class: "primary", id: "call-tool" }, "Call tool")));
  const app = appResourceUri(tool);
  showInspector(
    h("div", { class: "insp-head" }, h("span", { class: "kind" }, "tool"), h("h3", {}, tool.title || tool.toolName), serverChip(tool.server), h("code", { class: "small" }, tool.name)),
    h("div", { class: "badges" }, annotationBadges(tool.annotations), tool.outputSchema ? h("span", { class: "chip" }, "structured output") : null,
      app ? h("span", { class: "chip", title: app }, "MCP App") : null),
    tool.description ? h("p", { class: "desc" }, String(tool.description)) : null,
    f,
    h("details", { class: "schema" }, h("summary", {}, "Input schema"), pre(json(tool.inputSchema))),
    tool.outputSchema ? h("details", { class: "schema" }, h("summary", {}, "Output schema"), pre(json(tool.outputSchema))) : null);
}

/**
 * callView shows a tool call in the conversation: who asked (you or the
 * model) with the arguments, then the result entry with a progress bar and
 * its own Cancel button while it runs. Returns {signal, onprogress,
 * finish(result), fail(error)}.
 */
function callView(tool, args, { by = "you", parent, callId } = {}) {
  const label = `${tool.server} · ${tool.toolName}`;
  if (by === "you") say("me", `tools/call · ${label}`, argsView(args)).dataset.tool = tool.name;
  else {
    const li = say("model", { who: "Model", what: `calls ${label}` }, argsView(args));
    li.classList.add("tool-call");
    li.dataset.tool = tool.name;
    if (callId) li.dataset.callId = callId;
  }
  const bar = h("progress", { class: "progress", "aria-label": `Progress of ${tool.name}` });
  const barText = h("span", { class: "progress-text small muted" });
  const prog = h("div", { class: "progress-wrap", hidden: true }, bar, barText);
  const body = h("div", { class: "result-body" }, h("span", { class: "spinner", "aria-hidden": "true" }), h("span", { class: "muted" }, " waiting for the result…"));
  const ac = new AbortController();
  const onParent = () => ac.abort(parent.reason);
  parent?.addEventListener("abort", onParent, { once: true });
  const cancel = h("button", { type: "button", class: "ghost small cancel", onclick: () => ac.abort(new DOMException("you cancelled the call", "AbortError")) }, "Cancel");
  const li = say("server", { who: tool.server, what: `result · ${tool.toolName}` }, prog, body, h("div", { class: "row" }, cancel));
  Object.assign(li.dataset, { tool: tool.name, server: tool.server, state: "pending" });
  if (callId) li.dataset.callId = callId;
  const end = () => {
    cancel.remove();
    parent?.removeEventListener("abort", onParent);
  };
  return {
    li,
    signal: ac.signal,
    onprogress: ({ progress, total, message }) => {
      prog.hidden = false;
      if (typeof total === "number" && total > 0) {
        bar.max = total;
        bar.value = Math.min(progress, total);
      } else {
        bar.removeAttribute("value");
      }
      barText.textContent = `${message ? `${message} · ` : ""}${progress}${typeof total === "number" ? ` / ${total}` : ""}`;
    },
    finish(result) {
      end();
      body.replaceChildren(...renderToolResult(result, { readResource: (uri) => readResource(uri, tool.server) }));
      li.dataset.state = result.isError ? "tool-error" : "done";
      if (result.isError) li.classList.add("is-error");
      if (!result.isError && appResourceUri(tool)) {
        showApp(li.querySelector(".bubble"), { manager: state.manager, tool, args, result, onEvent: (t) => event(t), onMessage: appMessage }).catch((e) => warn(`app: ${e.message}`));
      }
    },
    fail(e) {
      end();
      body.replaceChildren(errorView(e, { reachable: true }));
      li.dataset.state = "error";
      li.classList.add("is-error");
    },
  };
}

async function callTool(tool, args) {
  const v = callView(tool, args);
  try {
    v.finish(await state.manager.callTool({ name: tool.name, arguments: args }, { signal: v.signal, resetTimeoutOnProgress: true, onprogress: v.onprogress }));
  } catch (e) {
    v.fail(e);
  }
}

// appMessage is where an app's ui/message goes: into the conversation.
function appMessage(server, text) {
  say("me", { who: `App of ${server}`, what: "message" }, h("div", { class: "text-body" }, text));
}

// taskCallbacks posts a task's outcome to the conversation.
function taskCallbacks(server, tool) {
  const name = `${server}__${tool}`;
  return {
    onResult: (result) => {
      const li = say("server", { who: server, what: `task result · ${tool}` }, ...renderToolResult(result, { readResource: (uri) => readResource(uri, server) }));
      Object.assign(li.dataset, { tool: name, server, state: result.isError ? "tool-error" : "done" });
    },
    onError: (e) => {
      const li = say("error", { who: server, what: `task · ${tool}` }, errorView(e));
      Object.assign(li.dataset, { tool: name, server });
    },
  };
}

async function callToolAsTask(tool, args) {
  const client = state.manager.client(tool.server);
  if (!client) return;
  say("me", `tools/call as a task · ${tool.server} · ${tool.toolName}`, argsView(args));
  try {
    const task = await client.callToolAsTask({ name: tool.toolName, arguments: args });
    if (!task.id) {
      event(`${tool.server} answered ${tool.toolName} directly instead of creating a task.`);
      taskCallbacks(tool.server, tool.toolName).onResult(await task.wait());
      return;
    }
    event(`Task ${task.id} started for ${tool.toolName} on ${tool.server}.`);
    track(task, { url: state.configs.get(tool.server)?.url, tool: tool.toolName, ...taskCallbacks(tool.server, tool.toolName) });
  } catch (e) {
    say("error", { who: tool.server, what: `task · ${tool.toolName}` }, errorView(e));
  }
}

function showResource(res) {
  const client = state.manager.client(res.server);
  const canSub = !!client?.serverCapabilities?.resources?.subscribe;
  const subscribed = () => state.subscriptions.get(res.uri) === res.server;
  const subBtn = h("button", { type: "button", class: "secondary", id: "subscribe-btn", hidden: !canSub }, subscribed() ? "Unsubscribe" : "Subscribe");
  subBtn.addEventListener("click", async () => {
    const on = subscribed();
    subBtn.disabled = true;
    try {
      if (on) await client.unsubscribe(res.uri);
      else await client.subscribe(res.uri);
      if (on) state.subscriptions.delete(res.uri);
      else state.subscriptions.set(res.uri, res.server);
      event(`${on ? "Unsubscribed from" : "Subscribed to"} ${res.uri} on ${res.server}${on ? "" : ": updates will show up here"}.`);
      subBtn.textContent = on ? "Subscribe" : "Unsubscribe";
      renderList("resources");
    } catch (e) {
      say("error", { who: res.server, what: "subscribe" }, errorView(e));
    } finally {
      subBtn.disabled = false;
    }
  });
  showInspector(
    h("div", { class: "insp-head" }, h("span", { class: "kind" }, "resource"), h("h3", {}, res.title || res.name), serverChip(res.server)),
    h("code", { class: "uri block" }, res.uri),
    h("dl", { class: "facts" }, [["MIME type", res.mimeType], ["size", res.size]].filter(([, v]) => v !== undefined).map(([k, v]) => [h("dt", {}, k), h("dd", {}, String(v))])),
    res.description ? h("p", { class: "desc" }, String(res.description)) : null,
    h("div", { class: "row" }, h("button", { type: "button", class: "primary", id: "read-btn", onclick: () => readResource(res.uri, res.server) }, "Read"), subBtn));
}

async function readResource(uri, server) {
  say("me", `resources/read${server ? ` · ${server}` : ""}`, h("code", { class: "uri" }, uri));
  const li = say("server", { who: server ?? "Server", what: "resource" }, h("span", { class: "muted" }, "reading…"));
  Object.assign(li.dataset, { uri, server: server ?? "" });
  try {
    const r = await state.manager.readResource(server ? { uri, server } : { uri });
    li.querySelector(".bubble").replaceChildren(...(r.contents || []).map(renderResourceContents));
    li.dataset.state = "done";
  } catch (e) {
    li.querySelector(".bubble").replaceChildren(errorView(e));
    li.dataset.state = "error";
    li.classList.add("is-error");
  }
}

/** templateVars returns the variable names of an RFC 6570 template. */
function templateVars(t) {
  const out = [];
  for (const m of String(t).matchAll(/\{([+#./;?&]?)([^}]+)\}/g)) {
    for (const v of m[2].split(",")) out.push({ op: m[1], name: v.replace(/[*]|:\d+$/g, "") });
  }
  return out;
}

/** expandTemplate does simple RFC 6570 expansion (levels 1-3, no explode). */
function expandTemplate(t, values) {
  return String(t).replace(/\{([+#./;?&]?)([^}]+)\}/g, (_, op, list) => {
    const names = list.split(",").map((v) => v.replace(/[*]|:\d+$/g, ""));
    const enc = op === "+" || op === "#" ? encodeURI : encodeURIComponent;
    const parts = names.filter((n) => values[n] !== undefined && values[n] !== "").map((n) =>
      (op === ";" || op === "?" || op === "&" ? `${n}=` : "") + enc(values[n]));
    if (!parts.length) return "";
    const sep = { "": ",", "+": ",", "#": ",", ".": ".", "/": "/", ";": ";", "?": "&", "&": "&" }[op];
    const first = { "": "", "+": "", "#": "#", ".": ".", "/": "/", ";": ";", "?": "?", "&": "&" }[op];
    return first + parts.join(sep);
  });
}

function completionChips(server, input, ref, argName, context) {
  const chips = h("div", { class: "chips", role: "group", "aria-label": `Suggestions for ${argName}` });
  let seq = 0;
  let timer;
  let skip = false;
  const run = async () => {
    const client = state.manager.client(server);
    if (!client?.serverCapabilities?.completions) return;
    const mine = ++seq;
    try {
      const r = await client.complete({ ref, argument: { name: argName, value: input.value }, context: { arguments: context() } });
      if (mine !== seq) return;
      const values = r.completion?.values || [];
      chips.replaceChildren(...values.slice(0, 12).map((v) => h("button", { type: "button", class: "chip suggestion", onclick: () => {
        input.value = v;
        skip = true;
        input.dispatchEvent(new Event("input", { bubbles: true }));
        chips.replaceChildren();
        input.focus();
      } }, v)));
      if (r.completion?.hasMore) chips.append(h("span", { class: "muted small" }, " …more"));
    } catch (e) {
      if (mine === seq) chips.replaceChildren(h("span", { class: "muted small" }, `completion failed: ${e.message}`));
    }
  };
  input.addEventListener("input", () => {
    if (skip) { skip = false; return; }
    clearTimeout(timer);
    timer = setTimeout(run, 120);
  });
  input.addEventListener("focus", () => { if (!chips.childElementCount) run(); });
  return chips;
}

function showTemplate(tpl) {
  const vars = templateVars(tpl.uriTemplate);
  const inputs = {};
  const uri = h("input", { type: "text", id: "template-uri", class: "mono", spellcheck: "false", "aria-label": "Resource URI" });
  const values = () => Object.fromEntries(Object.entries(inputs).map(([k, i]) => [k, i.value]));
  const update = () => { uri.value = expandTemplate(tpl.uriTemplate, values()); };
  const fields = vars.map(({ name }) => {
    const id = uid("tv");
    const input = h("input", { id, type: "text", autocomplete: "off", oninput: update });
    inputs[name] = input;
    return h("div", { class: "field" }, h("label", { for: id, class: "field-label" }, name), input,
      completionChips(tpl.server, input, { type: "ref/resource", uri: tpl.uriTemplate }, name, values));
  });
  update();
  showInspector(
    h("div", { class: "insp-head" }, h("span", { class: "kind" }, "template"), h("h3", {}, tpl.title || tpl.name), serverChip(tpl.server)),
    h("code", { class: "uri block" }, tpl.uriTemplate),
    tpl.description ? h("p", { class: "desc" }, String(tpl.description)) : null,
    h("form", { onsubmit: (e) => { e.preventDefault(); readResource(uri.value, tpl.server); } }, fields,
      h("div", { class: "field" }, h("label", { for: "template-uri", class: "field-label" }, "URI"), uri),
      h("div", { class: "row" }, h("button", { type: "submit", class: "primary" }, "Read"))));
}

function showPrompt(prompt) {
  const inputs = {};
  const values = () => Object.fromEntries(Object.entries(inputs).map(([k, i]) => [k, i.value]).filter(([, v]) => v !== ""));
  const fields = (prompt.arguments || []).map((a) => {
    const id = uid("pa");
    const input = h("input", { id, type: "text", required: !!a.required, autocomplete: "off", name: a.name });
    inputs[a.name] = input;
    return h("div", { class: "field" },
      h("label", { for: id, class: ["field-label", a.required && "required"] }, a.title || a.name),
      input, a.description ? h("div", { class: "field-hint" }, String(a.description)) : null,
      completionChips(prompt.server, input, { type: "ref/prompt", name: prompt.promptName }, a.name, values));
  });
  const f = h("form", { "aria-label": `Get prompt ${prompt.name}`, onsubmit: (e) => {
    e.preventDefault();
    if (!f.reportValidity()) return;
    getPrompt(prompt, values());
  } }, fields.length ? fields : h("p", { class: "muted" }, "This prompt takes no arguments."),
  h("div", { class: "row" }, h("button", { type: "submit", class: "primary", id: "get-prompt" }, "Get prompt")));
  showInspector(
    h("div", { class: "insp-head" }, h("span", { class: "kind" }, "prompt"), h("h3", {}, prompt.title || prompt.promptName), serverChip(prompt.server)),
    prompt.description ? h("p", { class: "desc" }, String(prompt.description)) : null,
    f);
}

async function getPrompt(prompt, args) {
  say("me", `prompts/get · ${prompt.server} · ${prompt.promptName}`, argsView(args));
  const li = say("server", { who: prompt.server, what: `prompt · ${prompt.promptName}` }, h("span", { class: "muted" }, "getting…"));
  li.dataset.server = prompt.server;
  try {
    const r = await state.manager.getPrompt({ name: prompt.name, arguments: args });
    li.querySelector(".bubble").replaceChildren(
      r.description ? h("p", { class: "muted" }, String(r.description)) : "",
      ...(r.messages || []).map((m) => h("div", { class: ["prompt-msg", `role-${m.role}`] }, h("div", { class: "role" }, String(m.role)),
        renderBlocks(m.content, { readResource: (uri) => readResource(uri, prompt.server) }))));
    li.dataset.state = "done";
  } catch (e) {
    li.querySelector(".bubble").replaceChildren(errorView(e));
    li.classList.add("is-error");
  }
}

// ------------------------------------------------------------ the model loop

function renderComposer() {
  const on = !!state.llm.url;
  const busy = !!state.turn;
  $("chat-input").disabled = !on;
  $("send-btn").hidden = busy;
  $("send-btn").disabled = !on;
  $("stop-btn").hidden = !busy;
  append(clear($("composer-mode")), on
    ? [h("strong", {}, state.llm.model || "model"), ` at ${state.llm.url} · the tools of every connected server are offered to it (at most ${MAX_ROUNDS} model requests per message)`]
    : ["No model configured: pick a tool on the left and call it. To chat with a model that picks tools itself, set an OpenAI-compatible endpoint under ",
      h("button", { type: "button", class: "linkish", onclick: openSettings }, "Settings"), "."]);
}

async function runTurn(text) {
  say("me", "message", h("div", { class: "text-body" }, text)).classList.add("user-message");
  state.history.push({ role: "user", content: text });
  const ac = new AbortController();
  state.turn = ac;
  renderComposer();
  try {
    await modelLoop({
      llm: state.llm,
      history: state.history,
      signal: ac.signal,
      tools: () => toOpenAIChatTools(state.manager.tools()),
      onThinking: (round) => {
        const li = event(`Asking the model (request ${round})…`, "thinking");
        return () => li.remove();
      },
      onText: (t, { final }) => {
        const li = say("model", { who: state.llm.model || "Model", what: final ? "answer" : "" }, h("div", { class: "text-body" }, t));
        if (final) li.classList.add("final-answer");
      },
      callTool: (call, signal) => modelToolCall(call, signal),
    });
  } catch (e) {
    say("error", "model", errorView(e)).classList.add("model-error");
  } finally {
    state.turn = null;
    renderComposer();
  }
}

/** modelToolCall runs one of the model's tool calls and returns the tool message content. */
async function modelToolCall(call, signal) {
  const name = call.function?.name;
  const tool = state.manager.tools().find((t) => t.name === name);
  let args;
  try {
    args = call.function?.arguments ? JSON.parse(call.function.arguments) : {};
  } catch (e) {
    say("error", { who: "Model", what: `calls ${name}` }, `The arguments are not JSON: ${e.message}`);
    return `Error: the arguments are not valid JSON (${e.message})`;
  }
  if (!tool) {
    say("error", { who: "Model", what: `calls ${name}` }, `No connected server has the tool ${name}.`);
    return `Error: no such tool ${name}`;
  }
  const v = callView(tool, args, { by: "model", parent: signal, callId: call.id });
  try {
    const result = await state.manager.callTool({ name: tool.name, arguments: args }, { signal: v.signal, resetTimeoutOnProgress: true, onprogress: v.onprogress });
    v.finish(result);
    return toOpenAIChatContent(result);
  } catch (e) {
    v.fail(e);
    if (v.signal.aborted) return "Error: the user cancelled this tool call.";
    return `Error: ${e.message}`;
  }
}

// ------------------------------------------------------------ roots

function rootRow(r = { uri: "file:///", name: "" }) {
  const uri = h("input", { type: "text", class: "mono", value: r.uri, "aria-label": "Root URI", spellcheck: "false", placeholder: "file:///path" });
  const name = h("input", { type: "text", value: r.name ?? "", "aria-label": "Root name", placeholder: "name" });
  const row = h("div", { class: "kv-row" }, uri, name, h("button", { type: "button", class: "ghost small", "aria-label": "Remove root", onclick: () => row.remove() }, "✕"));
  return row;
}

function readRoots() {
  const roots = [];
  for (const row of $("roots-list").children) {
    const [uri, name] = row.querySelectorAll("input");
    const u = uri.value.trim();
    if (!u) continue;
    if (!u.startsWith("file://")) throw new Error(`“${u}” is not a file:// URI (roots are file:// URIs)`);
    roots.push(name.value.trim() ? { uri: u, name: name.value.trim() } : { uri: u });
  }
  return roots;
}

async function applyRoots() {
  const status = $("roots-status");
  let roots;
  try {
    roots = readRoots();
  } catch (e) {
    status.textContent = e.message;
    return;
  }
  state.roots = roots;
  const live = state.manager.servers().filter((s) => s.status === "connected");
  if (!live.length) {
    status.textContent = `Saved ${roots.length} root${roots.length === 1 ? "" : "s"}; they are offered when a server connects.`;
    return;
  }
  const failed = [];
  for (const s of live) {
    try {
      await state.manager.client(s.name)?.setRoots(roots);
    } catch (e) {
      failed.push(`${s.name}: ${e.message}`);
    }
  }
  status.textContent = failed.length ? `Roots updated, except: ${failed.join("; ")}` : "Roots updated: legacy servers were notified (notifications/roots/list_changed); modern servers ask with each request that needs them.";
  event(`You changed your roots to ${roots.map((r) => r.uri).join(", ") || "(none)"}.`, "roots-changed");
}

// ------------------------------------------------------------ settings, tabs, wiring

function headerRow(name = "", value = "") {
  const n = h("input", { type: "text", value: name, "aria-label": "Header name", placeholder: "Header-Name", spellcheck: "false" });
  const v = h("input", { type: "text", value, "aria-label": "Header value", placeholder: "value", spellcheck: "false" });
  const row = h("div", { class: "kv-row" }, n, v, h("button", { type: "button", class: "ghost small", "aria-label": "Remove header", onclick: () => row.remove() }, "✕"));
  return row;
}

function setupTabs(tablist) {
  const tabs = [...tablist.querySelectorAll("[role=tab]")];
  const select = (tab) => {
    for (const t of tabs) {
      const on = t === tab;
      t.setAttribute("aria-selected", on ? "true" : "false");
      t.tabIndex = on ? 0 : -1;
      $(t.getAttribute("aria-controls")).hidden = !on;
    }
  };
  tabs.forEach((t, i) => {
    t.addEventListener("click", () => select(t));
    t.addEventListener("keydown", (e) => {
      const d = e.key === "ArrowRight" ? 1 : e.key === "ArrowLeft" ? -1 : 0;
      if (!d) return;
      const next = tabs[(i + d + tabs.length) % tabs.length];
      select(next);
      next.focus();
    });
  });
}

function openSettings() {
  $("llm-url").value = state.llm.url;
  $("llm-model").value = state.llm.model;
  $("llm-key").value = state.llm.key;
  $("settings-dialog").showModal();
}

function main() {
  const params = new URLSearchParams(location.search);
  const origin = location.origin;
  if (params.get("url")) $("server-url").value = params.get("url");
  if (params.get("name")) $("server-name").value = params.get("name");
  if (params.get("transport")) $("transport").value = params.get("transport");
  for (const [url, label] of [[`${origin}/mcp`, "demo server, dual-era"], [`${origin}/legacy/mcp`, "demo server, legacy only"], [`${origin}/sse`, "demo server, HTTP+SSE"]]) {
    $("server-presets").append(h("option", { value: url }, label));
  }
  $("connect-form").addEventListener("submit", (e) => { e.preventDefault(); connectForm(); });
  $("oauth-forget").addEventListener("click", () => {
    for (const k of Object.keys(localStorage)) if (k.startsWith(AUTH_PREFIX)) localStorage.removeItem(k);
    warn("stored OAuth sign-ins forgotten");
  });
  $("advanced-toggle").addEventListener("click", () => {
    const open = $("advanced").hidden;
    $("advanced").hidden = !open;
    $("advanced-toggle").setAttribute("aria-expanded", open ? "true" : "false");
  });
  $("add-header").addEventListener("click", () => $("headers-list").append(headerRow()));
  for (const r of state.roots) $("roots-list").append(rootRow(r));
  $("add-root").addEventListener("click", () => {
    const row = rootRow();
    $("roots-list").append(row);
    row.querySelector("input").focus();
  });
  $("apply-roots").addEventListener("click", applyRoots);
  $("clear-conv").addEventListener("click", () => {
    clear(conv);
    state.history = [];
  });
  $("search").addEventListener("input", (e) => {
    state.filter = e.target.value;
    renderLists();
  });
  $("log-level").addEventListener("change", async (e) => {
    state.logLevel = e.target.value;
    for (const s of state.manager?.servers() ?? []) {
      const c = state.manager.client(s.name);
      if (!c) continue;
      try {
        await c.setLogLevel(state.logLevel);
        warn(`${s.name}: log level set to ${state.logLevel}`);
      } catch (err) {
        warn(`${s.name}: setLogLevel: ${err.message}`);
      }
    }
  });
  $("settings-btn").addEventListener("click", openSettings);
  $("settings-dialog").addEventListener("close", () => {
    if ($("settings-dialog").returnValue !== "save") return;
    state.llm = { url: $("llm-url").value.trim(), model: $("llm-model").value.trim(), key: $("llm-key").value };
    warn(state.llm.url ? `model endpoint: ${state.llm.url}` : "no LLM endpoint: you pick the tools, and write sampling replies by hand");
    renderComposer();
  });
  $("composer").addEventListener("submit", (e) => {
    e.preventDefault();
    const text = $("chat-input").value.trim();
    if (!text || state.turn || !state.llm.url) return;
    $("chat-input").value = "";
    runTurn(text);
  });
  $("chat-input").addEventListener("keydown", (e) => {
    if (e.key === "Enter" && !e.shiftKey) {
      e.preventDefault();
      $("composer").requestSubmit();
    }
  });
  $("stop-btn").addEventListener("click", () => state.turn?.abort(new DOMException("you stopped the model", "AbortError")));
  for (const tl of document.querySelectorAll("[role=tablist]")) setupTabs(tl);
  renderComposer();
  renderServers();
  renderLists();
  Promise.all([ensureInit(), appsAvailable()]).then(([, apps]) => {
    state.manager = makeManager({ apps });
    document.body.dataset.ready = "true";
    // Back from a sign-in that took the whole page (the popup was blocked):
    // oauth-callback.html sent us the callback URL; finish the connection.
    const back = params.get("oauth-callback");
    const last = back ? JSON.parse(localStorage.getItem(`${AUTH_PREFIX}last-server`) || "null") : null;
    if (back) history.replaceState(null, "", location.pathname);
    if (last) {
      $("server-url").value = last.url;
      $("server-name").value = last.name;
      $("transport").value = last.transport || "auto";
      $("oauth-on").checked = true;
      connectForm(back);
    }
    // The embedded demo server is there from the start (?demo=0: not).
    if (params.get("demo") !== "0") addDemo();
    if (params.get("connect") === "1" && params.get("url")) connectForm();
    renderServers();
  }, (e) => {
    $("status-text").textContent = "WebAssembly failed to load";
    $("status").dataset.state = "error";
    say("error", "init", errorView(e), h("p", { class: "hint" }, "Build it with: bash scripts/build-wasm.sh"));
  });
}

main();
