// McpManager: many MCP servers behind one object — each connects, fails
// and reconnects on its own; their tools, resources and prompts are
// aggregated under namespaced names; a call is routed to its server. See
// docs/manager.md for the reasons behind the naming, collision and
// reconnect rules.

import { Client } from "./client.js";
import { ErrorCode, McpError } from "./errors.js";
import { checkOptions } from "./loader.js";

const MANAGER_OPTIONS = [
  "clientInfo", "separator", "sampling", "elicitation", "roots", "onLog", "onProgress", "onStderr",
  "clientOptions", "connectOptions", "reconnect", "healthCheck",
];
// connect options that apply to every HTTP/WebSocket server (the others come from its entry).
const SHARED_CONNECT_OPTIONS = ["fetch", "credentials", "mode", "maxMessageSize", "protocolVersions"];
const SERVER_KEYS = [
  "url", "headers", "transport", "command", "args", "env", "cwd", "allowTools", "denyTools", "disabled", "auth", "era",
  "type", // written by some tools next to "url"/"command"; "stdio", "http", "sse", "streamable-http", "websocket"
];
const TRANSPORTS = ["auto", "streamable-http", "sse", "websocket", "stdio"];
// The de-facto "type" values of mcpServers files, mapped onto transports.
const TYPE_ALIASES = { stdio: "stdio", http: "streamable-http", "streamable-http": "streamable-http", streamableHttp: "streamable-http", sse: "sse", ws: "websocket", websocket: "websocket" };
const RECONNECT_DEFAULTS = { delay: 500, maxDelay: 30000, attempts: 8 };
// Tool and prompt names the LLM APIs accept: [A-Za-z0-9_-], at most 64.
const NAME_MAX = 64;
// Client errors that mean the connection is gone (not a failed request).
const LOST_KINDS = new Set(["transport", "closed"]);

/** The default separator between a server's name and its tool's name. */
export const DEFAULT_SEPARATOR = "__";

function fnv1a(s) {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(16).padStart(8, "0");
}

// sanitize keeps the characters every LLM API accepts in a function name.
function sanitize(s) {
  return s.replace(/[^A-Za-z0-9_-]/g, "_");
}

/**
 * namespacedName is the name the aggregate gives tool (or prompt) `item` of
 * server `server`: "<server><sep><item>" with characters outside
 * [A-Za-z0-9_-] replaced by "_", shortened to 64 characters (keeping a hash
 * of the whole) when longer.
 */
export function namespacedName(server, item, separator = DEFAULT_SEPARATOR) {
  const full = `${sanitize(server)}${separator}${sanitize(item)}`;
  if (full.length <= NAME_MAX) return full;
  const h = fnv1a(`${server}\u0000${item}`);
  return `${full.slice(0, NAME_MAX - h.length - 1)}_${h}`;
}

// uniqueName returns name, or name_2, name_3, … (within 64 characters), the
// first not in taken.
function uniqueName(name, taken) {
  if (!taken.has(name)) return name;
  for (let k = 2; ; k++) {
    const suffix = `_${k}`;
    const n = `${name.slice(0, NAME_MAX - suffix.length)}${suffix}`;
    if (!taken.has(n)) return n;
  }
}

function toMcpError(err) {
  if (err instanceof McpError) return err;
  return new McpError(ErrorCode.InternalError, err?.message ?? String(err), undefined, { kind: "internal", cause: err });
}

function sleep(ms, signal) {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const t = setTimeout(done, ms);
    function done() {
      clearTimeout(t);
      signal.removeEventListener("abort", done);
      resolve();
    }
    signal.addEventListener("abort", done, { once: true });
  });
}

// event makes a CustomEvent (an Event with detail where a runtime lacks it).
function event(type, detail) {
  if (typeof CustomEvent === "function") return new CustomEvent(type, { detail });
  return Object.assign(new Event(type), { detail });
}

function callbackError(where, err) {
  if (typeof console !== "undefined") console.error(`mcpwasm: McpManager ${where} threw`, err);
}

/**
 * checkServerConfig validates one entry of mcpServers and returns a copy
 * with transport resolved ("stdio" when command is given).
 */
export function checkServerConfig(name, config) {
  const where = `McpManager: server ${JSON.stringify(name)}`;
  if (typeof name !== "string" || name === "") throw new TypeError("McpManager: a server name must be a non-empty string");
  const c = { ...checkOptions(config, SERVER_KEYS, where) };
  if (c.type !== undefined) {
    const t = TYPE_ALIASES[c.type];
    if (!t) throw new TypeError(`${where}: unknown type ${JSON.stringify(c.type)}`);
    if (c.transport === undefined) c.transport = t;
    delete c.type;
  }
  if (c.command !== undefined) {
    if (typeof c.command !== "string" || c.command === "") throw new TypeError(`${where}: command must be a non-empty string`);
    if (c.url !== undefined) throw new TypeError(`${where}: give url or command, not both`);
    if (c.transport !== undefined && c.transport !== "stdio") throw new TypeError(`${where}: command needs transport "stdio"`);
    c.transport = "stdio";
    if (c.args !== undefined && (!Array.isArray(c.args) || c.args.some((a) => typeof a !== "string"))) throw new TypeError(`${where}: args must be an array of strings`);
    if (c.env !== undefined && (typeof c.env !== "object" || c.env === null || Object.values(c.env).some((v) => typeof v !== "string"))) throw new TypeError(`${where}: env must map names to strings`);
    if (c.cwd !== undefined && typeof c.cwd !== "string") throw new TypeError(`${where}: cwd must be a string`);
  } else {
    if (c.transport === "stdio") throw new TypeError(`${where}: transport "stdio" needs a command`);
    if (typeof c.url !== "string" && !(c.url instanceof URL)) throw new TypeError(`${where}: give a url (or a command for a stdio server)`);
    if (c.transport !== undefined && !TRANSPORTS.includes(c.transport)) throw new TypeError(`${where}: unknown transport ${JSON.stringify(c.transport)} (known: ${TRANSPORTS.join(", ")})`);
  }
  for (const k of ["allowTools", "denyTools"]) {
    if (c[k] !== undefined && (!Array.isArray(c[k]) || c[k].some((t) => typeof t !== "string"))) throw new TypeError(`${where}: ${k} must be an array of tool names`);
  }
  return c;
}

/**
 * parseConfig reads the de-facto mcpServers JSON (a string or an object)
 * and returns {mcpServers} with every entry checked.
 */
export function parseConfig(json) {
  const obj = typeof json === "string" ? JSON.parse(json) : json;
  if (!obj || typeof obj !== "object" || !obj.mcpServers || typeof obj.mcpServers !== "object" || Array.isArray(obj.mcpServers)) {
    throw new TypeError('McpManager: the configuration must be {"mcpServers": {name: {...}}}');
  }
  const mcpServers = {};
  for (const [name, c] of Object.entries(obj.mcpServers)) mcpServers[name] = checkServerConfig(name, c);
  return { mcpServers };
}

/**
 * McpManager connects to a set of MCP servers and presents them as one:
 * one namespaced list of tools, resources and prompts, calls routed to the
 * server that owns them, the same handlers for every server's sampling,
 * elicitation and roots requests (told which server asks). Events:
 * "change" (detail {server, kind}) once per aggregate update, "status"
 * (detail: the ServerState) when a server's status changes.
 */
export class McpManager extends EventTarget {
  #opts;
  #sep;
  #reconnect;
  #entries = new Map(); // name → entry
  #closed = false;
  #agg = null; // cached aggregate: {tools, prompts, resources, templates, toolIndex, promptIndex}

  /**
   * @param config {mcpServers: {name: ServerConfig}} (or its JSON text).
   * @param options handlers and settings (see index.d.ts, ManagerOptions).
   */
  constructor(config, options) {
    super();
    const opts = checkOptions(options, MANAGER_OPTIONS, "McpManager");
    for (const k of ["sampling", "elicitation", "onLog", "onProgress", "onStderr"]) {
      if (opts[k] !== undefined && typeof opts[k] !== "function") throw new TypeError(`McpManager: option "${k}" must be a function`);
    }
    if (opts.roots !== undefined && typeof opts.roots !== "function" && !Array.isArray(opts.roots)) {
      throw new TypeError('McpManager: option "roots" must be a function or an array of roots');
    }
    this.#sep = opts.separator ?? DEFAULT_SEPARATOR;
    if (typeof this.#sep !== "string" || this.#sep === "") throw new TypeError('McpManager: option "separator" must be a non-empty string');
    const r = checkOptions(opts.reconnect, ["delay", "maxDelay", "attempts"], "McpManager reconnect");
    this.#reconnect = { ...RECONNECT_DEFAULTS };
    for (const k of ["delay", "maxDelay", "attempts"]) {
      if (r[k] === undefined) continue;
      if (typeof r[k] !== "number" || !(r[k] >= 0)) throw new TypeError(`McpManager: reconnect.${k} must be a number >= 0`);
      this.#reconnect[k] = r[k];
    }
    if (!(this.#reconnect.attempts >= 1) || !Number.isFinite(this.#reconnect.attempts)) throw new TypeError("McpManager: reconnect.attempts must be a finite number >= 1");
    checkOptions(opts.connectOptions, SHARED_CONNECT_OPTIONS, "McpManager connectOptions");
    if (opts.healthCheck !== undefined && (typeof opts.healthCheck !== "number" || opts.healthCheck < 0)) throw new TypeError('McpManager: option "healthCheck" must be a number of ms >= 0');
    const info = opts.clientInfo ?? { name: "mcpwasm-manager", version: "0.1.0" };
    if (typeof info.name !== "string" || typeof info.version !== "string") throw new TypeError('McpManager: option "clientInfo" must be {name, version}');
    this.#opts = { ...opts, clientInfo: info };
    const cfg = config === undefined ? { mcpServers: {} } : parseConfig(config);
    for (const [name, c] of Object.entries(cfg.mcpServers)) this.#entries.set(name, this.#newEntry(name, c));
  }

  #newEntry(name, config) {
    return {
      name,
      config,
      status: config.disabled ? "closed" : "connecting",
      error: undefined,
      client: undefined,
      serverInfo: undefined,
      lists: { tools: [], resources: [], prompts: [], resourceTemplates: [] },
      stop: new AbortController(), // aborted by remove/close
      run: null, // the connect loop in progress
      first: null, // settles after the first attempt of the current run
      refreshing: {}, // kind → {running, again}
      health: null,
    };
  }

  // ------------------------------------------------------------ state

  #state(e) {
    const s = { name: e.name, status: e.status };
    if (e.error) s.error = e.error;
    if (e.serverInfo) s.serverInfo = e.serverInfo;
    if (e.status === "connected" && e.client) s.client = e.client;
    if (e.status === "connected" && e.stdio?.pid !== undefined) s.pid = e.stdio.pid;
    return s;
  }

  #setStatus(e, status, error) {
    const changed = e.status !== status || e.error !== error;
    e.status = status;
    e.error = error;
    if (!changed) return;
    this.#agg = null; // the aggregate holds the connected servers' lists: a status listener sees the new one
    this.dispatchEvent(event("status", this.#state(e)));
  }

  #changed(server, kind) {
    this.#agg = null;
    this.dispatchEvent(event("change", { server, kind }));
  }

  /** servers returns the state of every configured server, in configuration order. */
  servers() {
    return [...this.#entries.values()].map((e) => this.#state(e));
  }

  /** server returns the state of one server, or undefined. */
  server(name) {
    const e = this.#entries.get(name);
    return e && this.#state(e);
  }

  /** client returns the connected Client of a server, or undefined. */
  client(name) {
    const e = this.#entries.get(name);
    return e?.status === "connected" ? e.client : undefined;
  }

  // ------------------------------------------------------------ connecting

  /**
   * connect connects every configured (not disabled) server concurrently
   * and resolves when each has connected or failed its first attempt
   * (failed ones go on retrying in the background). It never rejects
   * because a server failed; their state says why.
   */
  async connect(options) {
    const opts = checkOptions(options, ["signal"], "McpManager.connect");
    if (this.#closed) throw new McpError(ErrorCode.ConnectionClosed, "McpManager: closed", undefined, { kind: "closed" });
    const waits = [];
    for (const e of this.#entries.values()) {
      if (e.config.disabled) continue;
      if (!e.run && !e.client) this.#start(e); // not the connected ones
      if (e.first) waits.push(e.first);
    }
    await this.#bounded(Promise.all(waits), opts.signal);
    return this.servers();
  }

  #bounded(p, signal) {
    if (!signal) return p;
    if (signal.aborted) return Promise.reject(signal.reason);
    return new Promise((resolve, reject) => {
      const onAbort = () => reject(signal.reason);
      signal.addEventListener("abort", onAbort, { once: true });
      p.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
    });
  }

  /**
   * add configures another server and connects it; it resolves with its
   * state after the first attempt. A name in use is a TypeError (remove
   * it first).
   */
  async add(name, config) {
    if (this.#closed) throw new McpError(ErrorCode.ConnectionClosed, "McpManager: closed", undefined, { kind: "closed" });
    if (this.#entries.has(name)) throw new TypeError(`McpManager: a server named ${JSON.stringify(name)} exists`);
    const e = this.#newEntry(name, checkServerConfig(name, config));
    this.#entries.set(name, e);
    this.dispatchEvent(event("status", this.#state(e)));
    if (e.config.disabled) return this.#state(e);
    this.#start(e);
    await e.first;
    return this.#state(e);
  }

  /** remove disconnects a server and forgets it. */
  async remove(name) {
    const e = this.#entries.get(name);
    if (!e) return;
    this.#entries.delete(name);
    const had = e.hadLists;
    await this.#shut(e);
    if (had) this.#changed(name, "servers");
  }

  /**
   * reconnect starts a server's connection loop again (after it failed, or
   * to force a new session) and resolves with its state after the first
   * attempt.
   */
  async reconnect(name) {
    const e = this.#entries.get(name);
    if (!e) throw new TypeError(`McpManager: no server named ${JSON.stringify(name)}`);
    if (e.run) {
      e.stop.abort();
      await e.run;
      e.stop = new AbortController();
    }
    if (await this.#drop(e)) this.#changed(name, "servers");
    this.#start(e);
    await e.first;
    return this.#state(e);
  }

  /** close disconnects every server; the manager cannot be used afterwards. */
  async close() {
    this.#closed = true;
    const all = [...this.#entries.values()];
    await Promise.all(all.map((e) => this.#shut(e)));
  }

  async #shut(e) {
    e.stop.abort();
    await e.run;
    await this.#drop(e);
    this.#setStatus(e, "closed", undefined);
  }

  // #drop closes the entry's client and empties its lists.
  async #drop(e) {
    clearInterval(e.health);
    e.health = null;
    const c = e.client;
    const stdio = e.stdio;
    e.client = undefined;
    e.stdio = undefined;
    const had = e.hadLists;
    e.lists = { tools: [], resources: [], prompts: [], resourceTemplates: [] };
    e.hadLists = false;
    if (had) this.#agg = null;
    if (c) {
      try { await c.close(); } catch { /* already gone */ }
    }
    await stdio?.exited; // a stdio server's process is ended within a bound
    return had;
  }

  // #start runs the connection loop of e: attempts with exponential
  // backoff, at most reconnect.attempts of them, then "failed".
  #start(e) {
    let settleFirst;
    e.first = new Promise((r) => { settleFirst = r; });
    const stop = e.stop.signal;
    const token = {};
    e.runToken = token;
    e.run = (async () => {
      const { delay, maxDelay, attempts } = this.#reconnect;
      for (let attempt = 0; ; attempt++) {
        if (stop.aborted) break;
        this.#setStatus(e, attempt === 0 && !e.everConnected ? "connecting" : "reconnecting", e.error);
        try {
          await this.#open(e, stop);
          settleFirst();
          break;
        } catch (err) {
          if (stop.aborted) break;
          e.error = toMcpError(err);
        }
        if (attempt + 1 >= attempts) {
          this.#setStatus(e, "failed", e.error);
          break;
        }
        this.#setStatus(e, "reconnecting", e.error);
        settleFirst();
        const wait = Math.min(maxDelay, delay * 2 ** attempt);
        await sleep(wait * (0.8 + 0.4 * Math.random()), stop);
      }
      settleFirst();
      if (e.runToken === token) e.run = null; // not a later loop's
    })();
  }

  #clientOptions(e) {
    const o = this.#opts;
    const name = e.name;
    const user = o.clientOptions ?? {};
    const opts = { ...user };
    if (o.sampling) opts.sampling = (params, extra) => o.sampling(params, { ...extra, server: name });
    if (o.elicitation) opts.elicitation = (params, extra) => o.elicitation(params, { ...extra, server: name });
    if (typeof o.roots === "function") opts.roots = () => o.roots({ server: name });
    else if (Array.isArray(o.roots)) opts.roots = o.roots;
    if (o.onLog) opts.onLog = (m) => { user.onLog?.(m); o.onLog(m, { server: name }); };
    if (o.onProgress) opts.onProgress = (n) => { user.onProgress?.(n); o.onProgress(n, { server: name }); };
    const refresh = (kind, userCb) => () => {
      try { userCb?.(); } catch (err) { callbackError(`clientOptions callback (${kind})`, err); }
      this.#refresh(e, kind);
    };
    opts.onToolsListChanged = refresh("tools", user.onToolsListChanged);
    opts.onPromptsListChanged = refresh("prompts", user.onPromptsListChanged);
    opts.onResourcesListChanged = refresh("resources", user.onResourcesListChanged);
    return opts;
  }

  // #open makes one connection attempt: a new client, connected, its lists
  // fetched. It leaves e connected or throws.
  async #open(e, stop) {
    const client = new Client(this.#opts.clientInfo, this.#clientOptions(e));
    let stdio; // what _openStdio returned: {exited} to wait for after close
    e.pending = new Set(); // list-changed notifications before the client is e's
    try {
      const c = e.config;
      if (c.transport === "stdio") {
        stdio = await this._openStdio(client, c, {
          signal: stop,
          onStderr: this.#opts.onStderr ? (line) => {
            try { this.#opts.onStderr(line, { server: e.name }); } catch (err) { callbackError("onStderr", err); }
          } : undefined,
        });
      } else {
        await client.connect(c.url, { ...this.#opts.connectOptions, transport: c.transport, headers: c.headers, auth: c.auth, era: c.era, signal: stop });
      }
      const lists = await this.#fetchAll(client, stop);
      if (stop.aborted) throw new McpError(ErrorCode.ConnectionClosed, "removed", undefined, { kind: "closed" });
      e.client = client;
      e.stdio = stdio;
      e.serverInfo = client.serverInfo;
      e.lists = lists;
      e.hadLists = true;
      e.everConnected = true;
      this.#setStatus(e, "connected", undefined);
      this.#changed(e.name, "servers");
      this.#watch(e, client);
      // a list that changed while the first lists were fetched is fetched again
      for (const kind of e.pending) this.#refresh(e, kind);
      e.pending = null;
    } catch (err) {
      try { await client.close(); } catch { /* never connected */ }
      await stdio?.exited;
      throw err;
    }
  }

  /**
   * _openStdio connects client to a stdio server (command, args, env, cwd)
   * and may resolve with {exited: Promise} (the manager waits for it after
   * closing the client). The browser build cannot start processes:
   * McpManager of mcpwasm/node overrides it.
   */
  async _openStdio() {
    throw new McpError(ErrorCode.ConnectionClosed, 'stdio servers need Node: import { McpManager } from "mcpwasm/node"', undefined, { kind: "transport" });
  }

  async #fetchAll(client, signal) {
    const caps = client.serverCapabilities ?? {};
    // A list the server fails to give (a JSON-RPC error) is empty; a
    // broken connection fails the attempt.
    const all = async (it) => {
      const out = [];
      try {
        for await (const x of it) out.push(x);
      } catch (err) {
        if (err?.kind !== "rpc") throw err;
      }
      return out;
    };
    const [tools, resources, resourceTemplates, prompts] = await Promise.all([
      caps.tools ? all(client.tools(undefined, { signal })) : [],
      caps.resources ? all(client.resources(undefined, { signal })) : [],
      caps.resources ? all(client.resourceTemplates(undefined, { signal })) : [],
      caps.prompts ? all(client.prompts(undefined, { signal })) : [],
    ]);
    return { tools, resources, resourceTemplates, prompts };
  }

  // #watch follows a connected client: its session ending, or a failed
  // health check, starts the reconnection loop.
  #watch(e, client) {
    client.closed.then((err) => { if (err) this.#lost(e, client, err); });
    const every = this.#opts.healthCheck ?? 0;
    if (every > 0) {
      let busy = false;
      e.health = setInterval(async () => {
        if (busy || e.client !== client) return;
        busy = true;
        try {
          await client.ping();
        } catch (err) {
          if (LOST_KINDS.has(err?.kind) || err?.kind === "http" || err?.kind === "timeout") this.#lost(e, client, err);
        } finally {
          busy = false;
        }
      }, every);
      e.health.unref?.();
    }
  }

  // #lost takes a server whose connection broke back to "reconnecting".
  async #lost(e, client, err) {
    if (e.client !== client || e.stop.signal.aborted || this.#entries.get(e.name) !== e) return;
    e.error = toMcpError(err);
    this.#setStatus(e, "reconnecting", e.error);
    if (await this.#drop(e)) this.#changed(e.name, "servers");
    if (e.stop.signal.aborted || e.run) return;
    this.#start(e);
  }

  // #refresh refetches one list of a server after its list-changed
  // notification; notifications arriving meanwhile cause one more fetch.
  // "change" fires when the list differs.
  async #refresh(e, kind) {
    const r = (e.refreshing[kind] ??= { running: false, again: false });
    if (r.running) { r.again = true; return; }
    r.running = true;
    try {
      do {
        r.again = false;
        const client = e.client;
        if (!client) {
          e.pending?.add(kind); // still connecting: once connected
          return;
        }
        const key = kind;
        const all = async (it) => { const out = []; for await (const x of it) out.push(x); return out; };
        let list;
        let templates;
        try {
          if (kind === "tools") list = await all(client.tools());
          else if (kind === "prompts") list = await all(client.prompts());
          else {
            list = await all(client.resources());
            templates = await all(client.resourceTemplates()).catch(() => e.lists.resourceTemplates);
          }
        } catch (err) {
          if (LOST_KINDS.has(err?.kind)) this.#lost(e, client, err);
          return;
        }
        if (e.client !== client) return;
        const before = JSON.stringify([e.lists[key], kind === "resources" ? e.lists.resourceTemplates : null]);
        e.lists[key] = list;
        if (templates) e.lists.resourceTemplates = templates;
        if (JSON.stringify([e.lists[key], kind === "resources" ? e.lists.resourceTemplates : null]) !== before) this.#changed(e.name, kind);
      } while (r.again);
    } finally {
      r.running = false;
    }
  }

  // ------------------------------------------------------------ the aggregate

  // #connected returns the connected entries sorted by name: the order
  // that decides collisions, independent of configuration and timing.
  #connected() {
    return [...this.#entries.values()].filter((e) => e.status === "connected" && e.client)
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  #aggregate() {
    if (this.#agg) return this.#agg;
    const tools = [];
    const prompts = [];
    const resources = [];
    const resourceTemplates = [];
    const toolIndex = new Map();
    const promptIndex = new Map();
    const toolNames = new Set();
    const promptNames = new Set();
    for (const e of this.#connected()) {
      const { allowTools, denyTools } = e.config;
      for (const t of e.lists.tools) {
        if (allowTools && !allowTools.includes(t.name)) continue;
        if (denyTools && denyTools.includes(t.name)) continue;
        const name = uniqueName(namespacedName(e.name, t.name, this.#sep), toolNames);
        toolNames.add(name);
        const m = { ...t, name, server: e.name, toolName: t.name };
        tools.push(m);
        toolIndex.set(name, m);
      }
      for (const p of e.lists.prompts) {
        const name = uniqueName(namespacedName(e.name, p.name, this.#sep), promptNames);
        promptNames.add(name);
        const m = { ...p, name, server: e.name, promptName: p.name };
        prompts.push(m);
        promptIndex.set(name, m);
      }
      for (const r of e.lists.resources) resources.push({ ...r, server: e.name });
      for (const r of e.lists.resourceTemplates) resourceTemplates.push({ ...r, server: e.name });
    }
    this.#agg = { tools, prompts, resources, resourceTemplates, toolIndex, promptIndex };
    return this.#agg;
  }

  /**
   * tools returns the tools of every connected server (allow/deny filters
   * applied), named "<server><separator><tool>"; servers in name order.
   */
  tools() { return this.#aggregate().tools.slice(); }
  /** resources returns the resources of every connected server, each with its server. */
  resources() { return this.#aggregate().resources.slice(); }
  /** resourceTemplates returns the resource templates of every connected server. */
  resourceTemplates() { return this.#aggregate().resourceTemplates.slice(); }
  /** prompts returns the prompts of every connected server, namespaced like tools. */
  prompts() { return this.#aggregate().prompts.slice(); }

  /** tool returns the aggregate's tool of a namespaced name, or undefined. */
  tool(name) { return this.#aggregate().toolIndex.get(name); }

  #live(server) {
    const e = this.#entries.get(server);
    if (!e) throw new McpError(ErrorCode.InvalidParams, `no server named ${JSON.stringify(server)}`, undefined, { kind: "input" });
    if (e.status !== "connected" || !e.client) {
      throw new McpError(ErrorCode.ConnectionClosed, `server ${JSON.stringify(server)} is ${e.status}`, e.error ? { cause: e.error.message } : undefined, { kind: "closed" });
    }
    return e;
  }

  // #unknown is the error for a name the aggregate lacks: kind "closed"
  // when the name is in the namespace of a server that is not connected
  // (its tools left the aggregate), kind "input" otherwise.
  #unknown(what, name) {
    for (const e of this.#entries.values()) {
      if (e.status !== "connected" && name.startsWith(`${sanitize(e.name)}${this.#sep}`)) {
        return new McpError(ErrorCode.ConnectionClosed, `server ${JSON.stringify(e.name)} of ${what} ${JSON.stringify(name)} is ${e.status}`,
          e.error ? { cause: e.error.message } : undefined, { kind: "closed" });
      }
    }
    return new McpError(ErrorCode.InvalidParams, `unknown ${what} ${JSON.stringify(name)}`, undefined, { kind: "input" });
  }

  async #routed(e, run) {
    const client = e.client;
    try {
      return await run(client);
    } catch (err) {
      if (LOST_KINDS.has(err?.kind)) this.#lost(e, client, err);
      throw err;
    }
  }

  /**
   * callTool calls a tool by its namespaced name on the server that owns
   * it. An unknown (or filtered) name rejects with kind "input"; a server
   * that is not connected with kind "closed"; a broken connection also
   * starts the server's reconnection.
   */
  async callTool(params, options) {
    if (!params || typeof params.name !== "string") throw new TypeError("McpManager.callTool: params must be {name, arguments?}");
    const t = this.#aggregate().toolIndex.get(params.name);
    if (!t) throw this.#unknown("tool", params.name);
    const e = this.#live(t.server);
    return this.#routed(e, (c) => c.callTool({ ...params, name: t.toolName }, options));
  }

  /**
   * readResource reads a resource from params.server, or else from the
   * server that lists its URI (the first by name).
   */
  async readResource(params, options) {
    if (!params || typeof params.uri !== "string") throw new TypeError("McpManager.readResource: params must be {uri, server?}");
    const { server, ...rest } = params;
    let name = server;
    if (name === undefined) {
      name = this.#aggregate().resources.find((r) => r.uri === params.uri)?.server;
      if (name === undefined) throw new McpError(ErrorCode.InvalidParams, `no connected server lists the resource ${params.uri}; give params.server`, undefined, { kind: "input" });
    }
    const e = this.#live(name);
    return this.#routed(e, (c) => c.readResource(rest, options));
  }

  /** getPrompt gets a prompt by its namespaced name from its server. */
  async getPrompt(params, options) {
    if (!params || typeof params.name !== "string") throw new TypeError("McpManager.getPrompt: params must be {name, arguments?}");
    const p = this.#aggregate().promptIndex.get(params.name);
    if (!p) throw this.#unknown("prompt", params.name);
    const e = this.#live(p.server);
    return this.#routed(e, (c) => c.getPrompt({ ...params, name: p.promptName }, options));
  }
}
