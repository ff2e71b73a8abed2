// mcpwasm example web app: a browser chat client for any MCP server, using
// only the public API of the mcpwasm package (init, Client, McpError).

import { init, Client, McpError, popupAuthorization, localStorageStore } from "/mcpwasm/src/index.js";
import { $, h, append, clear, json, pre, time, uid } from "./dom.js";
import { schemaForm } from "./schema-form.js";
import { renderBlocks, renderResourceContents, renderToolResult } from "./content.js";
import { elicit, sample } from "./dialogs.js";
import { track, resume, clearTasks } from "./tasks.js";

const CLIENT_INFO = { name: "mcpwasm-example-web", version: "0.1.0", title: "mcpwasm example web app" };
const MAX_LOG = 400;

const state = {
  client: null, // the connected Client
  info: null, // SessionInfo
  url: null, // the URL connected to (the key of the stored task ids)
  connecting: null, // AbortController of a connect in progress
  roots: [{ uri: "file:///home/user/projects/demo", name: "demo project" }],
  subscriptions: new Set(),
  llm: { url: "", model: "", key: "" },
  logLevel: "info",
  selected: null, // {kind, key}
};

// ------------------------------------------------------------ conversation

const conv = $("conversation");

function serverName() {
  return state.info?.serverInfo?.title || state.info?.serverInfo?.name || "Server";
}

/** say appends a conversation entry: kind me | server | ask | event | error. */
function say(kind, title, ...body) {
  const who = { me: "You", server: serverName(), ask: `${serverName()} → you`, event: "", error: "Error" }[kind] ?? "";
  const li = h("li", { class: ["msg", `msg-${kind}`] },
    kind === "event" ? null : h("div", { class: "meta" }, h("span", { class: "who" }, who), title ? [" · ", h("span", { class: "what" }, title)] : null, h("time", {}, time())),
    h("div", { class: "bubble" }, kind === "event" ? [h("time", {}, time()), " "] : null, body));
  conv.append(li);
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

/** argsView shows the arguments of a request the user sends. */
function argsView(args) {
  return Object.keys(args).length ? pre(json(args), "args") : h("span", { class: "muted" }, "(no arguments)");
}

/** errorView describes an error (McpError or other) for a bubble. */
function errorView(e) {
  if (e instanceof McpError && e.kind === "abort") e = e.cause ?? e;
  if (e instanceof McpError) {
    const hint = e.kind === "cors" || (e.kind === "transport" && /CORS/i.test(e.message))
      ? h("p", { class: "hint" }, "Browsers only let a page talk to a server on another origin when the server answers CORS: it must allow the MCP request headers and expose Mcp-Session-Id, WWW-Authenticate and MCP-Protocol-Version (see the README, “CORS”).")
      : e.kind === "http" && e.status === 401
        ? h("p", { class: "hint" }, "The server wants authorization: add an Authorization header under “Headers & auth”.")
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

function onLog(m) {
  const data = typeof m.data === "string" ? m.data : json(m.data);
  pushLog("log-list", "count-log", h("li", { class: ["log", `lvl-${m.level}`], dataset: { level: String(m.level) } },
    h("time", {}, time()), h("span", { class: "lvl" }, String(m.level)), m.logger ? h("span", { class: "logger" }, String(m.logger)) : null,
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
    event(`The server needs input before it can answer (input_required): ${asks.join(", ")} — answering, then retrying the request.`, "mrtr");
  }
}

// ------------------------------------------------------------ connection

let initPromise = null;
function ensureInit() {
  initPromise ??= init().catch((e) => {
    initPromise = null;
    throw e;
  });
  return initPromise;
}

function setStatus(text, kind) {
  $("status-text").textContent = text;
  $("status").dataset.state = kind;
}

function connectOptions() {
  const headers = {};
  for (const row of $("headers-list").children) {
    const [name, value] = row.querySelectorAll("input");
    if (name.value.trim()) headers[name.value.trim()] = value.value;
  }
  return { transport: $("transport").value, headers, oauth: $("oauth-on").checked };
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

async function connect(callbackUrl) {
  const url = $("server-url").value.trim();
  if (!url) return;
  const opts = connectOptions();
  const bad = Object.keys(opts.headers).find((n) => !/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(n));
  if (bad) {
    say("error", "connect", errorView(new Error(`“${bad}” is not a valid header name`)));
    return;
  }
  if (state.client) await disconnect();
  const ac = new AbortController();
  state.connecting = ac;
  setBusy(true);
  try {
    setStatus("Loading WebAssembly…", "connecting");
    await ensureInit();
    setStatus(`Connecting to ${url}…`, "connecting");
    const client = makeClient();
    const connectOpts = { transport: opts.transport, headers: opts.headers, signal: ac.signal };
    if (opts.oauth || callbackUrl) {
      connectOpts.auth = authOptions(callbackUrl);
      localStorage.setItem(`${AUTH_PREFIX}last-server`, JSON.stringify({ url, transport: opts.transport }));
    }
    const info = await client.connect(url, connectOpts);
    state.client = client;
    state.info = info;
    state.url = url;
    state.subscriptions.clear();
    setStatus(`Connected · ${info.era} · ${info.protocolVersion}`, "connected");
    renderServer();
    say("event", "", `Connected to ${serverName()} at ${url} — ${info.era} era, protocol ${info.protocolVersion}.`);
    await Promise.all(Object.keys(lists).map((k) => resetList(k)));
    const resumed = await resume(client, url, (tool) => taskCallbacks(tool));
    if (resumed) event(`Resumed ${resumed} running task${resumed > 1 ? "s" : ""} from before the reload.`);
  } catch (e) {
    setStatus("Connection failed", "error");
    say("error", `connect ${url}`, errorView(e));
    state.client = null;
    state.info = null;
  } finally {
    state.connecting = null;
    setBusy(false);
  }
}

async function disconnect() {
  state.connecting?.abort(new DOMException("connection cancelled", "AbortError"));
  const c = state.client;
  state.client = null;
  state.info = null;
  if (c) {
    try {
      await c.close();
    } catch (e) {
      warn(`close: ${e.message}`);
    }
    event("Disconnected.");
  }
  setStatus("Not connected", "idle");
  renderServer();
  for (const k of Object.keys(lists)) clearList(k);
  clearTasks();
  showInspector(null);
  setBusy(false);
}

function setBusy(busy) {
  $("connect-btn").textContent = busy ? "Connecting…" : state.client ? "Reconnect" : "Connect";
  $("connect-btn").disabled = busy;
  $("disconnect-btn").hidden = !state.client && !busy;
  $("disconnect-btn").textContent = busy ? "Cancel" : "Disconnect";
}

/** makeClient builds a Client whose callbacks drive the page. */
function makeClient() {
  let client = null;
  const mine = (fn) => (...args) => (state.client === client || state.client === null ? fn(...args) : undefined);
  client = new Client(CLIENT_INFO, {
    requestTimeout: 10 * 60 * 1000, // a person may take a while to answer a dialog
    logLevel: state.logLevel,
    samplingTools: true,
    elicitationModes: ["form", "url"],
    sampling: async (params, { signal }) => {
      const li = say("ask", "sampling/createMessage", h("div", {}, "Asks for a model reply to:"), h("div", { class: "quote" }, ...(params.messages || []).flatMap((m) => renderBlocks(m.content))));
      try {
        const r = await sample(params, { signal, serverName: serverName(), llm: state.llm });
        li.querySelector(".bubble").append(h("div", { class: "answer" }, h("strong", {}, `You approved (${r.model}): `), r.content.text));
        li.dataset.outcome = "approved";
        return r;
      } catch (e) {
        li.querySelector(".bubble").append(h("div", { class: "answer declined" }, signal?.aborted ? "The server withdrew the request." : "You rejected it."));
        li.dataset.outcome = "rejected";
        throw e;
      }
    },
    elicitation: async (params, { signal }) => {
      const url = params.mode === "url";
      const li = say("ask", url ? "elicitation/create (URL)" : "elicitation/create", h("div", { class: "quote" }, String(params.message ?? "")),
        url ? h("code", { class: "full-url" }, String(params.url ?? "")) : null);
      try {
        const r = await elicit(params, { signal, serverName: serverName(), onEvent: (t) => event(t) });
        li.querySelector(".bubble").append(h("div", { class: ["answer", r.action !== "accept" && "declined"] },
          h("strong", {}, `You chose ${r.action}`), r.content ? [": ", h("code", {}, JSON.stringify(r.content))] : null));
        li.dataset.outcome = r.action;
        return r;
      } catch (e) {
        li.querySelector(".bubble").append(h("div", { class: "answer declined" }, "The server withdrew the request."));
        throw e;
      }
    },
    roots: async () => {
      event(`The server asked for your roots (roots/list): ${state.roots.map((r) => r.uri).join(", ") || "none"}.`, "roots-asked");
      return { roots: state.roots };
    },
    onLog: mine(onLog),
    onMessage: mine(onWire),
    onWarning: mine((m) => warn(m)),
    onToolsListChanged: mine(() => listChanged("tools")),
    onPromptsListChanged: mine(() => listChanged("prompts")),
    onResourcesListChanged: mine(() => { listChanged("resources"); listChanged("templates"); }),
    onResourceUpdated: mine((n) => resourceUpdated(n.uri)),
    onElicitationComplete: mine((n) => event(`The server says the URL elicitation ${n.elicitationId} is complete.`)),
  });
  return client;
}

// ------------------------------------------------------------ server card

function renderServer() {
  const box = clear($("server-info"));
  const info = state.info;
  if (!info) {
    const origin = location.origin;
    box.append(h("p", { class: "muted" }, "Not connected. Try the embedded demo server:"),
      h("div", { class: "presets" },
        presetButton("Demo · dual-era", `${origin}/mcp`, "auto", "Negotiates the modern 2026-07-28 protocol"),
        presetButton("Demo · legacy only", `${origin}/legacy/mcp`, "auto", "A 2025-11-25 server: sessions, server→client requests"),
        presetButton("Demo · HTTP+SSE", `${origin}/sse`, "sse", "The 2024-11-05 HTTP+SSE transport")));
    return;
  }
  const si = info.serverInfo || {};
  const caps = info.serverCapabilities || {};
  const capList = [];
  for (const [k, v] of Object.entries(caps)) {
    if (!v || typeof v !== "object") continue;
    const flags = Object.entries(v).filter(([, x]) => x === true).map(([f]) => f);
    capList.push(h("span", { class: "chip cap", title: flags.join(", ") }, k, flags.length ? h("small", {}, ` ${flags.join(" · ")}`) : null));
  }
  append(box, [
    h("div", { class: "server-name" }, h("strong", {}, si.title || si.name || "(unnamed server)"), si.version ? h("span", { class: "muted" }, ` v${si.version}`) : null),
    h("div", { class: "badges" },
      h("span", { class: ["badge", `era-${info.era}`], id: "era-badge" }, info.era),
      h("span", { class: "badge", id: "version-badge" }, info.protocolVersion),
      info.sessionId ? h("span", { class: "badge subtle", title: `Mcp-Session-Id ${info.sessionId}` }, "session") : null),
    si.description ? h("p", { class: "muted" }, String(si.description)) : null,
    h("div", { class: "caps" }, capList),
    info.instructions ? h("div", { class: "instructions" }, h("div", { class: "muted small" }, "Instructions"), h("blockquote", { id: "instructions" }, String(info.instructions))) : null,
    h("div", { class: "row" }, h("button", { type: "button", class: "ghost small", onclick: ping }, "Ping"))]);
}

function presetButton(label, url, transport, title) {
  return h("button", { type: "button", class: "preset", title, onclick: () => {
    $("server-url").value = url;
    $("transport").value = transport;
    connect();
  } }, h("strong", {}, label), h("small", {}, title));
}

async function ping() {
  const t0 = performance.now();
  try {
    await state.client.ping();
    event(`Ping answered in ${Math.round(performance.now() - t0)} ms.`);
  } catch (e) {
    say("error", "ping", errorView(e));
  }
}

// ------------------------------------------------------------ lists

const lists = {
  tools: { load: (c, p) => c.listTools(p), key: "tools", cap: "tools", noun: "tools", show: (x) => showTool(x), id: (x) => x.name },
  resources: { load: (c, p) => c.listResources(p), key: "resources", cap: "resources", noun: "resources", show: (x) => showResource(x), id: (x) => x.uri },
  templates: { load: (c, p) => c.listResourceTemplates(p), key: "resourceTemplates", cap: "resources", noun: "resource templates", show: (x) => showTemplate(x), id: (x) => x.uriTemplate },
  prompts: { load: (c, p) => c.listPrompts(p), key: "prompts", cap: "prompts", noun: "prompts", show: (x) => showPrompt(x), id: (x) => x.name },
};
for (const l of Object.values(lists)) Object.assign(l, { items: [], cursor: undefined, pages: 0, done: false });

function clearList(name) {
  const l = lists[name];
  Object.assign(l, { items: [], cursor: undefined, pages: 0, done: false });
  clear($(`panel-${name}`));
  $(`count-${name}`).textContent = "";
}

async function resetList(name, pages = 1) {
  clearList(name);
  if (!state.client) return;
  if (!state.info.serverCapabilities?.[lists[name].cap]) {
    $(`panel-${name}`).append(h("p", { class: "muted" }, `This server offers no ${lists[name].noun}.`));
    return;
  }
  for (let i = 0; i < pages && !lists[name].done; i++) await loadPage(name);
}

async function loadPage(name) {
  const l = lists[name];
  const client = state.client;
  if (!client || l.done) return;
  const btn = $(`panel-${name}`).querySelector(".more");
  if (btn) btn.disabled = true;
  try {
    const page = await l.load(client, l.cursor ? { cursor: l.cursor } : undefined);
    if (client !== state.client) return;
    l.items.push(...(page[l.key] || []));
    l.pages += 1;
    l.cursor = page.nextCursor;
    l.done = !page.nextCursor;
  } catch (e) {
    if (client === state.client) say("error", `${name}: list`, errorView(e));
    if (btn) btn.disabled = false;
    return;
  }
  renderList(name);
}

function itemLabel(name, x) {
  if (name === "resources") return [x.title || x.name, x.uri];
  if (name === "templates") return [x.title || x.name, x.uriTemplate];
  return [x.title || x.name, x.title ? x.name : x.description];
}

function renderList(name) {
  const l = lists[name];
  const panel = clear($(`panel-${name}`));
  const ul = h("ul", { class: "items", "aria-label": lists[name].noun });
  for (const x of l.items) {
    const [main, sub] = itemLabel(name, x);
    const key = l.id(x);
    const selected = state.selected?.kind === name && state.selected.key === key;
    ul.append(h("li", {}, h("button", { type: "button", class: ["item", selected && "selected"], dataset: { key }, "aria-pressed": selected ? "true" : "false",
      onclick: () => { state.selected = { kind: name, key }; renderList(name); l.show(x); } },
    h("span", { class: "item-main" }, String(main ?? key)), sub ? h("span", { class: "item-sub" }, String(sub)) : null,
    name === "resources" && state.subscriptions.has(x.uri) ? h("span", { class: "chip small", title: "subscribed" }, "subscribed") : null)));
  }
  panel.append(ul, h("div", { class: "pager" },
    h("span", { class: "muted small page-info" }, `${l.items.length} ${lists[name].noun} · ${l.pages} page${l.pages === 1 ? "" : "s"}${l.done ? "" : " · more available"}`),
    l.done ? null : h("button", { type: "button", class: "ghost small more", onclick: () => loadPage(name) }, "Load next page")));
  $(`count-${name}`).textContent = String(l.items.length) + (l.done ? "" : "+");
}

async function listChanged(name) {
  event(`The server says its ${lists[name].noun} changed (list_changed) — refreshing the list.`, "list-changed");
  const pages = Math.max(1, lists[name].pages);
  await resetList(name, pages);
  const tab = $(`tab-${name}`);
  tab.classList.remove("flash");
  void tab.offsetWidth;
  tab.classList.add("flash");
}

function resourceUpdated(uri) {
  const li = event(`Resource updated: ${uri}`, "resource-updated");
  li.querySelector(".bubble").append(" ", h("button", { type: "button", class: "linkish", onclick: () => readResource(uri) }, "read it again"));
}

// ------------------------------------------------------------ inspector

function showInspector(...content) {
  const body = clear($("inspector-body"));
  if (content.length === 0 || content[0] === null) {
    body.append(h("p", { class: "muted" }, "Select a tool, resource, template or prompt."));
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
  showInspector(
    h("div", { class: "insp-head" }, h("span", { class: "kind" }, "tool"), h("h3", {}, tool.title || tool.name), tool.title ? h("code", {}, tool.name) : null),
    h("div", { class: "badges" }, annotationBadges(tool.annotations), tool.outputSchema ? h("span", { class: "chip" }, "structured output") : null),
    tool.description ? h("p", { class: "desc" }, String(tool.description)) : null,
    f,
    h("details", { class: "schema" }, h("summary", {}, "Input schema"), pre(json(tool.inputSchema))),
    tool.outputSchema ? h("details", { class: "schema" }, h("summary", {}, "Output schema"), pre(json(tool.outputSchema))) : null);
}

async function callTool(tool, args) {
  const client = state.client;
  if (!client) return;
  say("me", `tools/call · ${tool.name}`, argsView(args));
  const bar = h("progress", { class: "progress", "aria-label": `Progress of ${tool.name}` });
  const barText = h("span", { class: "progress-text small muted" });
  const prog = h("div", { class: "progress-wrap", hidden: true }, bar, barText);
  const body = h("div", { class: "result-body" }, h("span", { class: "spinner", "aria-hidden": "true" }), h("span", { class: "muted" }, " waiting for the result…"));
  const ac = new AbortController();
  const cancel = h("button", { type: "button", class: "ghost small cancel", onclick: () => ac.abort(new DOMException("you cancelled the call", "AbortError")) }, "Cancel");
  const li = say("server", `result · ${tool.name}`, prog, body, h("div", { class: "row" }, cancel));
  li.dataset.tool = tool.name;
  li.dataset.state = "pending";
  try {
    const result = await client.callTool({ name: tool.name, arguments: args }, {
      signal: ac.signal,
      resetTimeoutOnProgress: true,
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
    });
    body.replaceChildren(...renderToolResult(result, { readResource }));
    li.dataset.state = result.isError ? "tool-error" : "done";
    if (result.isError) li.classList.add("is-error");
  } catch (e) {
    body.replaceChildren(errorView(e));
    li.dataset.state = "error";
    li.classList.add("is-error");
  } finally {
    cancel.remove();
  }
}

// taskCallbacks posts a task's outcome to the conversation.
function taskCallbacks(tool) {
  return {
    onResult: (result) => {
      const li = say("server", `task result · ${tool}`, ...renderToolResult(result, { readResource }));
      li.dataset.tool = tool;
      li.dataset.state = result.isError ? "tool-error" : "done";
    },
    onError: (e) => {
      const li = say("error", `task · ${tool}`, errorView(e));
      li.dataset.tool = tool;
    },
  };
}

async function callToolAsTask(tool, args) {
  const client = state.client;
  if (!client) return;
  say("me", `tools/call as a task · ${tool.name}`, argsView(args));
  try {
    const task = await client.callToolAsTask({ name: tool.name, arguments: args });
    if (!task.id) {
      event(`The server answered ${tool.name} directly instead of creating a task.`);
      taskCallbacks(tool.name).onResult(await task.wait());
      return;
    }
    event(`Task ${task.id} started for ${tool.name}.`);
    track(task, { url: state.url, tool: tool.name, ...taskCallbacks(tool.name) });
  } catch (e) {
    say("error", `task · ${tool.name}`, errorView(e));
  }
}

function showResource(res) {
  const canSub = !!state.info?.serverCapabilities?.resources?.subscribe;
  const subBtn = h("button", { type: "button", class: "secondary", id: "subscribe-btn", hidden: !canSub }, state.subscriptions.has(res.uri) ? "Unsubscribe" : "Subscribe");
  subBtn.addEventListener("click", async () => {
    const on = state.subscriptions.has(res.uri);
    subBtn.disabled = true;
    try {
      if (on) await state.client.unsubscribe(res.uri);
      else await state.client.subscribe(res.uri);
      if (on) state.subscriptions.delete(res.uri);
      else state.subscriptions.add(res.uri);
      event(`${on ? "Unsubscribed from" : "Subscribed to"} ${res.uri}${on ? "" : ": updates will show up here"}.`);
      subBtn.textContent = on ? "Subscribe" : "Unsubscribe";
      renderList("resources");
    } catch (e) {
      say("error", "subscribe", errorView(e));
    } finally {
      subBtn.disabled = false;
    }
  });
  showInspector(
    h("div", { class: "insp-head" }, h("span", { class: "kind" }, "resource"), h("h3", {}, res.title || res.name)),
    h("code", { class: "uri block" }, res.uri),
    h("dl", { class: "facts" }, [["MIME type", res.mimeType], ["size", res.size]].filter(([, v]) => v !== undefined).map(([k, v]) => [h("dt", {}, k), h("dd", {}, String(v))])),
    res.description ? h("p", { class: "desc" }, String(res.description)) : null,
    h("div", { class: "row" }, h("button", { type: "button", class: "primary", id: "read-btn", onclick: () => readResource(res.uri) }, "Read"), subBtn));
}

async function readResource(uri) {
  const client = state.client;
  if (!client) return;
  say("me", "resources/read", h("code", { class: "uri" }, uri));
  const li = say("server", "resource", h("span", { class: "muted" }, "reading…"));
  li.dataset.uri = uri;
  try {
    const r = await client.readResource({ uri });
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

function completionChips(input, ref, argName, context) {
  const chips = h("div", { class: "chips", role: "group", "aria-label": `Suggestions for ${argName}` });
  let seq = 0;
  let timer;
  let skip = false;
  const run = async () => {
    if (!state.client || !state.info?.serverCapabilities?.completions) return;
    const mine = ++seq;
    try {
      const r = await state.client.complete({ ref, argument: { name: argName, value: input.value }, context: { arguments: context() } });
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
      completionChips(input, { type: "ref/resource", uri: tpl.uriTemplate }, name, values));
  });
  update();
  showInspector(
    h("div", { class: "insp-head" }, h("span", { class: "kind" }, "template"), h("h3", {}, tpl.title || tpl.name)),
    h("code", { class: "uri block" }, tpl.uriTemplate),
    tpl.description ? h("p", { class: "desc" }, String(tpl.description)) : null,
    h("form", { onsubmit: (e) => { e.preventDefault(); readResource(uri.value); } }, fields,
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
      completionChips(input, { type: "ref/prompt", name: prompt.name }, a.name, values));
  });
  const f = h("form", { "aria-label": `Get prompt ${prompt.name}`, onsubmit: (e) => {
    e.preventDefault();
    if (!f.reportValidity()) return;
    getPrompt(prompt, values());
  } }, fields.length ? fields : h("p", { class: "muted" }, "This prompt takes no arguments."),
  h("div", { class: "row" }, h("button", { type: "submit", class: "primary", id: "get-prompt" }, "Get prompt")));
  showInspector(
    h("div", { class: "insp-head" }, h("span", { class: "kind" }, "prompt"), h("h3", {}, prompt.title || prompt.name), prompt.title ? h("code", {}, prompt.name) : null),
    prompt.description ? h("p", { class: "desc" }, String(prompt.description)) : null,
    f);
}

async function getPrompt(prompt, args) {
  const client = state.client;
  if (!client) return;
  say("me", `prompts/get · ${prompt.name}`, argsView(args));
  const li = say("server", `prompt · ${prompt.name}`, h("span", { class: "muted" }, "getting…"));
  try {
    const r = await client.getPrompt({ name: prompt.name, arguments: args });
    li.querySelector(".bubble").replaceChildren(
      r.description ? h("p", { class: "muted" }, String(r.description)) : "",
      ...(r.messages || []).map((m) => h("div", { class: ["prompt-msg", `role-${m.role}`] }, h("div", { class: "role" }, String(m.role)), renderBlocks(m.content, { readResource }))));
    li.dataset.state = "done";
  } catch (e) {
    li.querySelector(".bubble").replaceChildren(errorView(e));
    li.classList.add("is-error");
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
  if (!state.client) {
    status.textContent = `Saved ${roots.length} root${roots.length === 1 ? "" : "s"}; they are offered when you connect.`;
    return;
  }
  try {
    await state.client.setRoots(roots);
    const how = state.info.era === "legacy" ? "the server was notified (notifications/roots/list_changed)" : "modern servers ask for roots with each request that needs them";
    status.textContent = `Roots updated: ${how}.`;
    event(`You changed your roots to ${roots.map((r) => r.uri).join(", ") || "(none)"} — ${how}.`, "roots-changed");
  } catch (e) {
    status.textContent = e.message;
  }
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

function main() {
  const params = new URLSearchParams(location.search);
  const origin = location.origin;
  $("server-url").value = params.get("url") || `${origin}/mcp`;
  if (params.get("transport")) $("transport").value = params.get("transport");
  for (const [url, label] of [[`${origin}/mcp`, "demo server, dual-era"], [`${origin}/legacy/mcp`, "demo server, legacy only"], [`${origin}/sse`, "demo server, HTTP+SSE"]]) {
    $("server-presets").append(h("option", { value: url }, label));
  }
  $("connect-form").addEventListener("submit", (e) => { e.preventDefault(); connect(); });
  $("oauth-forget").addEventListener("click", () => {
    for (const k of Object.keys(localStorage)) if (k.startsWith(AUTH_PREFIX)) localStorage.removeItem(k);
    warn("stored OAuth sign-ins forgotten");
  });
  // Back from a sign-in that took the whole page (the popup was blocked):
  // oauth-callback.html sent us the callback URL; finish the connection.
  const back = params.get("oauth-callback");
  if (back) {
    const last = JSON.parse(localStorage.getItem(`${AUTH_PREFIX}last-server`) || "null");
    history.replaceState(null, "", location.pathname);
    if (last) {
      $("server-url").value = last.url;
      $("transport").value = last.transport || "auto";
      $("oauth-on").checked = true;
      queueMicrotask(() => connect(back));
    }
  }
  $("disconnect-btn").addEventListener("click", () => disconnect());
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
  $("clear-conv").addEventListener("click", () => clear(conv));
  $("log-level").addEventListener("change", async (e) => {
    state.logLevel = e.target.value;
    if (!state.client) return;
    try {
      await state.client.setLogLevel(state.logLevel);
      warn(`log level set to ${state.logLevel}`);
    } catch (err) {
      warn(`setLogLevel: ${err.message}`);
    }
  });
  $("settings-btn").addEventListener("click", () => {
    $("llm-url").value = state.llm.url;
    $("llm-model").value = state.llm.model;
    $("llm-key").value = state.llm.key;
    $("settings-dialog").showModal();
  });
  $("settings-dialog").addEventListener("close", () => {
    if ($("settings-dialog").returnValue !== "save") return;
    state.llm = { url: $("llm-url").value.trim(), model: $("llm-model").value.trim(), key: $("llm-key").value };
    warn(state.llm.url ? `sampling drafts from ${state.llm.url}` : "no LLM endpoint: sampling replies are written by hand");
  });
  for (const tl of document.querySelectorAll("[role=tablist]")) setupTabs(tl);
  renderServer();
  setBusy(false);
  // Start loading the module right away; connecting waits for it.
  ensureInit().then(() => { document.body.dataset.ready = "true"; }, (e) => {
    setStatus("WebAssembly failed to load", "error");
    say("error", "init", errorView(e), h("p", { class: "hint" }, "Build it with: bash scripts/build-wasm.sh"));
  });
  if (params.get("connect") === "1") connect();
}

main();
